import { WeftException } from '../graphql/weft.exception';

export enum FabricsErrorCode {
  FabricNotFound = 'FABRIC_NOT_FOUND',
  ChipNotFound = 'CHIP_NOT_FOUND',
  FabricNameTaken = 'FABRIC_NAME_TAKEN',
  InstallationInvalid = 'INSTALLATION_INVALID',
  FixtureNotFound = 'FIXTURE_NOT_FOUND',
  SourceAmbiguous = 'SOURCE_AMBIGUOUS',
  ChipFilterInvalid = 'CHIP_FILTER_INVALID',
}

export class FabricsException extends WeftException<FabricsErrorCode> {
  constructor(code: FabricsErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(code, message, details);
  }
}
