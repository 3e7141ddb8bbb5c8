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

/**
 * A counter of a gateway's Prometheus endpoint (`doable_gateway_users_moved_total`, ...),
 * summed over the series whose labels include `labels`; 0 when it has none.
 */
export async function gatewayCounter(gatewayUrl: string, name: string, labels: Readonly<Record<string, string>> = {}): Promise<number> {
  const text = await fetch(new URL('/metrics', gatewayUrl), { signal: AbortSignal.timeout(5_000) }).then((response) => response.text());
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)(\{[^}]*\})? ([0-9.e+-]+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const series = match[2] ?? '';
    if (Object.entries(labels).every(([label, value]) => series.includes(`${label}="${value}"`))) sum += Number(match[3]);
  }
  return sum;
}
