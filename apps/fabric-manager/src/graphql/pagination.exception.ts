import { WeftException } from './weft.exception';

export enum PaginationErrorCode {
  CursorInvalid = 'CURSOR_INVALID',
}

export class PaginationException extends WeftException<PaginationErrorCode> {
  constructor(message: string) {
    super(PaginationErrorCode.CursorInvalid, message);
  }
}
