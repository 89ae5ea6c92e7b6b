// `persona-lab demo-endpoint [--port N]`: serves the demo profiler (demo model, not an LLM) on 127.0.0.1 until
// Ctrl-C. The first line printed holds the base URL (npm start and the e2e tests read it).
import { DEMO_MODEL_ID, DEMO_MODEL_NAME } from '../core/demo/model';
import { startDemoServer } from '../core/demo/server';

export const DEMO_OPTIONS = {
  port: { type: 'string' },
} as const;

export const DEMO_USAGE = `  demo-endpoint [--port N]                                serve the demo profiler (${DEMO_MODEL_ID}: a fixed rule,
                                                           not an LLM) as an OpenAI-compatible endpoint on 127.0.0.1
                                                           (default: a free port) until Ctrl-C; prints its base URL`;

export interface DemoCliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Resolves when the server should stop (default: SIGINT or SIGTERM). */
  stopped?: Promise<unknown>;
}

const processIo: DemoCliIo = {
  stdout: (text) => process.stdout.write(text + '\n'),
  stderr: (text) => process.stderr.write(text + '\n'),
};

function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

export async function runDemoEndpoint(
  args: string[],
  opts: { port?: string },
  usage: (message: string) => Error,
  io: DemoCliIo = processIo,
): Promise<number> {
  if (args.length > 0) throw usage(`unexpected argument "${args[0]}"`);
  const port = opts.port === undefined ? 0 : Number(opts.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535 || opts.port?.trim() === '') {
    throw usage(`demo-endpoint --port ${opts.port}: expected a port number from 0 to 65535 (0: a free one)`);
  }
  const server = await startDemoServer({ port, log: io.stderr });
  io.stdout(`${server.baseURL}  (Persona Lab demo endpoint, model ${DEMO_MODEL_ID}: ${DEMO_MODEL_NAME})`);
  io.stdout(
    `Point Persona Lab at it: personaLab.endpoint.baseURL = ${server.baseURL}, personaLab.endpoint.model = ${DEMO_MODEL_ID} (no API key needed); Ctrl-C to stop.`,
  );
  await (io.stopped ?? untilSignal());
  await server.close();
  return 0;
}
