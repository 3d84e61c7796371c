/** One problem found in an installation file: where (a JSON path such as `$.cabling.missing[2].port`) and what. */
export interface InstallationIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * An installation file that cannot be loaded. Its message names the file, every JSON path at fault
 * and what is wrong there, so it can be shown to an operator as it is — never a stack trace.
 */
export class InstallationFileError extends Error {
  constructor(
    readonly source: string,
    readonly issues: readonly InstallationIssue[],
  ) {
    super(
      `${source}: ${issues.length === 1 ? 'invalid installation' : `${issues.length} problems`}\n` + issues.map((i) => `  ${i.path}: ${i.message}`).join('\n'),
    );
    this.name = 'InstallationFileError';
  }
}
