import { mkdirSync } from 'node:fs';
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Globals, TestResult, TestResultContainer } from 'allure-js-commons';
import type { Category, EnvironmentInfo } from 'allure-js-commons/sdk';
import { stringifyEnvInfo, type Writer } from 'allure-js-commons/sdk/reporter';
import AllureVitestReporter from 'allure-vitest/reporter';

/**
 * Allure's FileSystemWriter opens, writes, fsyncs and renames every result and attachment
 * synchronously on vitest's main thread; with a few thousand evidence files that blocked the
 * thread the workers report to for seconds per run. This writer queues the same files, with the
 * same names and contents, as asynchronous writes without fsync: the run is not over until
 * `flush()` has resolved, and a file that could not be written fails the flush.
 */
export class QueuedAllureWriter implements Writer {
  private readonly pending = new Set<Promise<void>>();
  private readonly failures: string[] = [];
  private dirMade = false;

  constructor(private readonly resultsDir: string) {}

  private queue(name: string, write: (path: string) => Promise<void>): void {
    if (!this.dirMade) {
      mkdirSync(this.resultsDir, { recursive: true });
      this.dirMade = true;
    }
    const p = write(join(this.resultsDir, name)).catch((e: Error) => {
      this.failures.push(`${name}: ${e.message}`);
    });
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  private json(name: string, value: unknown): void {
    this.queue(name, (path) => writeFile(path, JSON.stringify(value), 'utf8'));
  }

  writeAttachment(name: string, content: Buffer): void {
    this.queue(name, (path) => writeFile(path, content));
  }
  writeAttachmentFromPath(name: string, from: string): void {
    this.queue(name, (path) => copyFile(from, path));
  }
  writeEnvironmentInfo(info: EnvironmentInfo): void {
    this.queue('environment.properties', (path) => writeFile(path, stringifyEnvInfo(info), 'utf8'));
  }
  writeCategoriesDefinitions(categories: Category[]): void {
    this.json('categories.json', categories);
  }
  writeGroup(result: TestResultContainer): void {
    this.json(`${result.uuid}-container.json`, result);
  }
  writeResult(result: TestResult): void {
    this.json(`${result.uuid}-result.json`, result);
  }
  writeGlobals(name: string, info: Globals): void {
    this.json(name, info);
  }

  /** Resolves when every queued file is on disk; rejects naming the files that could not be written. */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
    if (this.failures.length > 0)
      throw new Error(
        `${this.failures.length} Allure result file(s) could not be written: ${this.failures.slice(0, 3).join('; ')}`,
      );
  }
}

type ReporterConfig = ConstructorParameters<typeof AllureVitestReporter>[0] & { resultsDir: string };

/** allure-vitest's reporter, writing through a QueuedAllureWriter. */
export class QueuedAllureReporter extends AllureVitestReporter {
  readonly writer: QueuedAllureWriter;

  constructor(config: ReporterConfig) {
    super(config);
    this.writer = new QueuedAllureWriter(config.resultsDir);
  }

  override onInit(...args: Parameters<AllureVitestReporter['onInit']>): void {
    super.onInit(...args);
    // allure-vitest builds its runtime with the default writer in onInit and takes no writer option;
    // the runtime reads `writer` on every write, so swapping it here covers every result after the
    // categories and environment files (written synchronously, once).
    const runtime = (this as unknown as { allureReporterRuntime?: { writer: Writer } }).allureReporterRuntime;
    if (!runtime || typeof runtime.writer?.writeResult !== 'function')
      throw new Error('allure-vitest changed: its reporter has no runtime writer to replace (src/run/allure-writer.ts)');
    runtime.writer = this.writer;
  }
}
