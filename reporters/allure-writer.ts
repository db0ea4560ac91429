import { mkdirSync } from 'node:fs';
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Globals, TestResult, TestResultContainer } from 'allure-js-commons';
import type { Category, EnvironmentInfo } from 'allure-js-commons/sdk';
import { stringifyEnvInfo, type Writer } from 'allure-js-commons/sdk/reporter';

/**
 * Allure's FileSystemWriter opens, writes, fsyncs and renames every result and attachment
 * synchronously, one after another; with a few thousand evidence files that took seconds per run.
 * This writer queues the same files, with the same names and contents, as asynchronous writes
 * without fsync: the report is not written until `flush()` has resolved, and a file that could not
 * be written fails the flush.
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
