// The PI guard of the CLI's commands that send prompts (run, judge): one decision and one refusal message.
import {
  decideGuard,
  findingLine,
  guardApplies,
  maskingTransport,
  scanOutgoing,
  type GuardSettings,
  type OutgoingPrompt,
} from '../core/pi/guard';
import { publicBaseURL, type ChatTransport } from '../core/runner/client';
import { Usage, type RunCliIo } from './runArgs';

/**
 * The PI guard of a run from the command line (a CLI cannot ask, so "ask" refuses): the transport to send with
 * (masking or not), or null after printing why it refused.
 */
export function cliPiGuard(
  prompts: Iterable<OutgoingPrompt>,
  parsed: { baseURL: string; piGuard: 'refuse' | 'mask' | 'send'; piGuardLoopback: boolean },
  http: ChatTransport,
  io: RunCliIo,
): ChatTransport | null {
  const settings: GuardSettings = {
    mode: parsed.piGuard === 'send' ? 'off' : parsed.piGuard === 'mask' ? 'mask' : 'ask',
    guardLoopback: parsed.piGuardLoopback,
  };
  if (!guardApplies(parsed.baseURL, settings)) return http;
  const scan = scanOutgoing(prompts);
  const action = decideGuard(settings, scan);
  const n = scan.findings.length;
  if (action === 'send') return http;
  if (action === 'mask') {
    io.stderr(
      `PI guard: masking ${n} residual PI finding${n === 1 ? '' : 's'} in ${scan.affected} of ${scan.prompts} prompts\n`,
    );
    return maskingTransport(http);
  }
  const lines = scan.findings.slice(0, 20).map((f) => `  ${findingLine(f)}`);
  if (n > 20) lines.push(`  … and ${n - 20} more`);
  io.stderr(
    `persona-lab: not sending: ${scan.affected} of ${scan.prompts} prompts to ${publicBaseURL(parsed.baseURL)} hold ${n} unredacted PI finding${n === 1 ? '' : 's'}:\n` +
      `${lines.join('\n')}\nRun again with --pi-guard mask (each finding replaced by its placeholder) or --pi-guard send.\n`,
  );
  return null;
}

export function piGuardOption(value: string | undefined): 'refuse' | 'mask' | 'send' {
  const v = value ?? 'refuse';
  if (v !== 'refuse' && v !== 'mask' && v !== 'send') throw new Usage('--pi-guard must be refuse, mask or send');
  return v;
}
