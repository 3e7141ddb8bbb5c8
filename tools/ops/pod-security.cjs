// What `npm run ops:check` holds every rendered workload to: the `restricted` Pod Security
// Standard (https://kubernetes.io/docs/concepts/security/pod-security-standards/), plus a
// read-only root filesystem, and the namespace's default-deny NetworkPolicy. Plain CommonJS so
// that the ops:check script (ESM, no build step) and the Jest spec both load it as it is.
'use strict';

const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'ReplicaSet']);
/** The only capability `restricted` lets a container add. */
const ADDABLE = new Set(['NET_BIND_SERVICE']);
const SECCOMP_OK = new Set(['RuntimeDefault', 'Localhost']);

/** The pod template of a workload (a CronJob's through its job template), or undefined. */
function podTemplateOf(object) {
  if (WORKLOAD_KINDS.has(object.kind)) return object.spec && object.spec.template;
  if (object.kind === 'CronJob') return object.spec && object.spec.jobTemplate && object.spec.jobTemplate.spec && object.spec.jobTemplate.spec.template;
  return undefined;
}

/**
 * Every way the rendered objects' pods fall short of `restricted` + a read-only root, as
 * `Kind/name: container: what` lines (empty: all hold).
 */
function restrictedViolations(objects) {
  const found = [];
  for (const object of objects) {
    const template = podTemplateOf(object);
    if (!template) continue;
    const where = `${object.kind}/${object.metadata.name}`;
    const pod = template.spec || {};
    const podContext = pod.securityContext || {};
    for (const key of ['hostNetwork', 'hostPID', 'hostIPC']) if (pod[key]) found.push(`${where}: ${key} is set`);
    for (const volume of pod.volumes || []) if (volume.hostPath) found.push(`${where}: volume ${volume.name} is a hostPath`);
    const containers = [...(pod.initContainers || []), ...(pod.containers || [])];
    for (const container of containers) {
      const context = container.securityContext || {};
      const at = `${where}: ${container.name}`;
      const nonRoot = context.runAsNonRoot !== undefined ? context.runAsNonRoot : podContext.runAsNonRoot;
      if (nonRoot !== true) found.push(`${at}: runAsNonRoot is not true`);
      const user = context.runAsUser !== undefined ? context.runAsUser : podContext.runAsUser;
      if (user === 0) found.push(`${at}: runAsUser is 0`);
      const seccomp = (context.seccompProfile || podContext.seccompProfile || {}).type;
      if (!SECCOMP_OK.has(seccomp)) found.push(`${at}: seccompProfile is not RuntimeDefault or Localhost`);
      if (context.privileged) found.push(`${at}: privileged`);
      if (context.allowPrivilegeEscalation !== false) found.push(`${at}: allowPrivilegeEscalation is not false`);
      if (context.readOnlyRootFilesystem !== true) found.push(`${at}: readOnlyRootFilesystem is not true`);
      const capabilities = context.capabilities || {};
      if (!(capabilities.drop || []).includes('ALL')) found.push(`${at}: capabilities do not drop ALL`);
      for (const added of capabilities.add || []) if (!ADDABLE.has(added)) found.push(`${at}: adds capability ${added}`);
    }
  }
  return found;
}

/** Whether the objects hold a NetworkPolicy that denies all ingress and egress to every pod. */
function hasDefaultDeny(objects) {
  return objects.some((object) => {
    if (object.kind !== 'NetworkPolicy') return false;
    const spec = object.spec || {};
    const everyPod = spec.podSelector && Object.keys(spec.podSelector).length === 0;
    const types = spec.policyTypes || [];
    return everyPod && types.includes('Ingress') && types.includes('Egress') && !spec.ingress && !spec.egress;
  });
}

module.exports = { restrictedViolations, hasDefaultDeny };
