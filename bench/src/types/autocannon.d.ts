// The slice of autocannon 9's API the load runner uses (the package ships no types).
declare module 'autocannon' {
  namespace autocannon {
    export interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
    }
    export interface AutocannonRequest {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
      onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
    }
    export interface AutocannonClient {
      setRequests(requests: AutocannonRequest[]): void;
    }
    export interface AutocannonOptions {
      /** One target, or several: connections are dealt out over them in turn. */
      url: string | string[];
      connections?: number;
      duration?: number;
      timeout?: number;
      connectionRate?: number;
      requests?: AutocannonRequest[];
      setupClient?: (client: AutocannonClient) => void;
    }
    export interface AutocannonResult {
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
    }
    export interface Instance {
      stop(): void;
    }
  }
  function autocannon(options: autocannon.AutocannonOptions, callback: (err: Error | null, result: autocannon.AutocannonResult) => void): autocannon.Instance;
  export = autocannon;
}
