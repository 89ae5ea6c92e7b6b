// StreamProfileBench's side of the Python driver (io/pythonDriver.ts): one process per checkout that renders prompts
// with bench_task.py (driverSource.ts). Runs the checkout's code, so callers decide on trust.
import { DriverError, PythonDriver, type DriverOptions } from '../../io/pythonDriver';
import DRIVER_SOURCE from './driver.py';

export { DriverError as ReferenceDriverError, type DriverOptions };

/** What the checkout sets besides the prompt: its system message and the create call's other keyword arguments. */
export interface ReferenceInfo {
  system: string;
  /** e.g. { temperature: 0, response_format: { type: 'json_object' } } */
  params: Record<string, unknown>;
  /** bench_inference.py's line of the create call */
  line: number;
  /** the bench_task.py Python imported */
  module: string;
  python: string;
}

/** The arguments bench_inference.py's rebuild_prompt_with_persona gives format_prompt. */
export interface ReferenceArgs {
  platform: string;
  username: string;
  bio: string;
  posts_text: string;
  candidate_pool: readonly string[];
  step_id: number;
  total_steps: number;
  prev_persona: string | null;
}

export class ReferenceDriver {
  private constructor(private readonly driver: PythonDriver) {}

  /** Starts Python on the checkout; rejects with a sentence saying why when it cannot. */
  static async start(
    checkout: string,
    options: DriverOptions = {},
  ): Promise<{ driver: ReferenceDriver; info: ReferenceInfo }> {
    const { driver, ready } = await PythonDriver.start(DRIVER_SOURCE, checkout, 'bench_task.py', options);
    return { driver: new ReferenceDriver(driver), info: ready as unknown as ReferenceInfo };
  }

  /** The prompt bench_task.py renders for these arguments. */
  async render(args: ReferenceArgs): Promise<string> {
    const answer = await this.driver.call({ args });
    if (typeof answer.prompt !== 'string') throw new DriverError('bench_task.py: no prompt');
    return answer.prompt;
  }

  close(): void {
    this.driver.close();
  }
}
