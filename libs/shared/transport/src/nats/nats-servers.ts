/**
 * The servers of NATS_URL: one URL, or a cluster's servers separated by commas. A client is given
 * them all, so it connects to any that answers and moves to another when its server goes away
 * (it also learns the cluster's other members from the server it reaches, but only once it has
 * reached one: a single URL whose server is down at start leaves it nowhere to go).
 */
export function natsServers(url: string): string[] {
  return url
    .split(',')
    .map((server) => server.trim())
    .filter((server) => server.length > 0);
}
