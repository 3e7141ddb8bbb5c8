/**
 * How many Sync API reads a gateway answered itself (its `doable_gateway_sync_polls_total`
 * counter, outcome `hit`; gateway polls/unchanged-polls.ts), from its Prometheus endpoint: what
 * shows a read-your-writes check was not vacuous. 0 when the gateway does not answer.
 */
export async function pollsAnsweredByGateway(gatewayUrl: string): Promise<number> {
  const text = await fetch(new URL('/metrics', gatewayUrl), { signal: AbortSignal.timeout(5_000) })
    .then((response) => response.text())
    .catch(() => '');
  const match = /^doable_gateway_sync_polls_total\{[^}]*outcome="hit"[^}]*\} ([0-9]+)/m.exec(text);
  return match ? Number(match[1]) : 0;
}
