import { WeftException } from '../graphql/weft.exception';

export enum AuthErrorCode {
  KeyMissing = 'KEY_MISSING',
  KeyInvalid = 'KEY_INVALID',
  KeyRevoked = 'KEY_REVOKED',
  RoleInsufficient = 'ROLE_INSUFFICIENT',
  KeyNotFound = 'KEY_NOT_FOUND',
}

export class AuthException extends WeftException<AuthErrorCode> {
  constructor(code: AuthErrorCode, message: string) {
    super(code, message);
  }
}
