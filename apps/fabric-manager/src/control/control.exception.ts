import { WeftException } from '../graphql/weft.exception';

export enum ControlErrorCode {
  GenerationNotFound = 'GENERATION_NOT_FOUND',
  RouterNotConfigured = 'ROUTER_NOT_CONFIGURED',
  /** An analysis asked of something the fabric does not have, or too large to answer. */
  AnalysisInvalid = 'ANALYSIS_INVALID',
  /** An analysis run this key did not start, or one no longer kept. */
  AnalysisNotFound = 'ANALYSIS_NOT_FOUND',
  /** Routing settings the fabric's engine refused (each problem named), or a family that takes none. */
  SettingsInvalid = 'ROUTING_SETTINGS_INVALID',
}

export class ControlException extends WeftException<ControlErrorCode> {
  constructor(code: ControlErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(code, message, details);
  }
}
