// The fork ships no types; the tests use only these parts.
declare module '@20minutes/s3rver' {
  interface Options {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    configureBuckets?: { name: string }[];
  }
  export default class S3rver {
    constructor(options: Options);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
    httpServer: import('node:http').Server | undefined;
  }
}
