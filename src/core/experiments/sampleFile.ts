// A sample on disk: <benchmark>/.personalab/samples/<NAME>.json, small and readable, with the fingerprints of the
// tasks files it was drawn from, so that a changed benchmark is noticed when the sample is used again.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularText, writeFileInside } from '../io/safeFs';
import { isRecord } from '../guards';

export const SAMPLE_DIR = join('.personalab', 'samples');

export interface TasksFingerprint {
  /** relative to the benchmark folder */
  file: string;
  size: number;
  /** SHA-1 of the size and the file's first and last 64 KiB (the index cache's fingerprint) */
  fingerprint: string;
}

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/;

/** Why a sample name cannot be used (it becomes a file name), or undefined. */
export function checkSampleName(name: string): string | undefined {
  return NAME_RE.test(name) ? undefined : 'letters, digits, ".", "_" and "-" only, starting with a letter or digit';
}

export const samplePath = (root: string, name: string): string => join(root, SAMPLE_DIR, `${name}.json`);

/** Writes a new sample file; never over an existing one (a sample is what later tries are compared on). */
export function writeSample(root: string, sample: { readonly name: string }): string {
  const problem = checkSampleName(sample.name);
  if (problem) throw new Error(`sample name "${sample.name}": ${problem}`);
  const path = samplePath(root, sample.name);
  if (existsSync(path)) throw new Error(`${path} exists; choose another sample name`);
  writeFileInside(root, path, JSON.stringify(sample, null, 2) + '\n', { exclusive: true });
  return path;
}

export function listSamples(root: string): string[] {
  try {
    return readdirSync(join(root, SAMPLE_DIR))
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -'.json'.length))
      .sort();
  } catch {
    return [];
  }
}

class SampleFileError extends Error {}

/** A sample file read as far as every sample kind shares: its fields, and how to fail at one of them. */
export interface SampleRecord {
  path: string;
  v: Record<string, unknown>;
  /** throws "<path>: <field>: <reason>" */
  fail(field: string, reason: string): never;
  /** a whole number ≥ 0 at `field`, or fail */
  int(field: string, x: unknown): number;
}

/**
 * Reads <root>/.personalab/samples/NAME.json as a sample of `format` ("persona-lab-sample", or a format's own kind),
 * version 1; throws with "<path>: <field>: <reason>" on anything it cannot use.
 */
export function readSampleRecord(root: string, name: string, format: string): SampleRecord {
  const path = samplePath(root, name);
  const fail = (field: string, reason: string): never => {
    throw new SampleFileError(`${path}: ${field ? `${field}: ` : ''}${reason}`);
  };
  const problem = checkSampleName(name);
  if (problem) fail('', `sample name "${name}": ${problem}`);
  let text = '';
  try {
    text = readRegularText(path);
  } catch {
    const known = listSamples(root);
    fail('', `no such sample${known.length ? ` (samples: ${known.join(', ')})` : ''}`);
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    fail('', `not JSON: ${(e as Error).message}`);
  }
  if (!isRecord(v)) return fail('', 'expected a JSON object');
  if (v.format !== format)
    fail(
      'format',
      `expected "${format}"${typeof v.format === 'string' ? `, found "${v.format}" (a sample of another benchmark)` : ''}`,
    );
  if (v.version !== 1) fail('version', `expected 1, found ${JSON.stringify(v.version)}`);
  const int = (field: string, x: unknown) =>
    typeof x === 'number' && Number.isInteger(x) && x >= 0 ? x : fail(field, 'expected a whole number ≥ 0');
  return { path, v, fail, int };
}
