import { BadRequestException, ForbiddenException, HttpException, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { GraphQLError, GraphQLFormattedError } from 'graphql';
import { AuthErrorCode, AuthException } from '../auth/auth.exception';
import { ControlErrorCode, ControlException } from '../control/control.exception';
import { DrillsErrorCode, DrillsException } from '../drills/drills.exception';
import { EventsErrorCode, EventsException } from '../events/events.exception';
import { FabricsErrorCode, FabricsException } from '../fabrics/fabrics.exception';
import { FaultsErrorCode, FaultsException } from '../faults/faults.exception';
import { TrafficErrorCode, TrafficException } from '../traffic/traffic.exception';
import { PaginationErrorCode, PaginationException } from './pagination.exception';
import { isStoreFull } from '../database/store-ownership';
import { HeavyWorkCancelled } from './operation-cost';
import { ManagerException } from '../database/manager.exception';
import { StudiesErrorCode, StudiesException } from '../studies/studies.exception';
import { assertUnreachable } from './weft.exception';

/** The codes a client of weft's GraphQL API can see in `extensions.code`. */
export enum GraphQLErrorCode {
  BadUserInput = 'BAD_USER_INPUT',
  NotFound = 'NOT_FOUND',
  Forbidden = 'FORBIDDEN',
  Unauthenticated = 'UNAUTHENTICATED',
  Conflict = 'CONFLICT',
  /** The store cannot grow (its disk is full, or WEFT_STORE_MAX_MB is reached): nothing was written. */
  StoreFull = 'STORE_FULL',
  /** A write sent to the standby manager: nothing was done; `extensions.activeUrl` names the active one when known. */
  NotActive = 'NOT_ACTIVE',
  /** A service weft depends on (the job queue) cannot be reached: nothing was done. */
  Unavailable = 'UNAVAILABLE',
  InternalServerError = 'INTERNAL_SERVER_ERROR',
}

function fabricsCode(code: FabricsErrorCode): GraphQLErrorCode {
  switch (code) {
    case FabricsErrorCode.FabricNotFound:
    case FabricsErrorCode.ChipNotFound:
    case FabricsErrorCode.FixtureNotFound:
      return GraphQLErrorCode.NotFound;
    case FabricsErrorCode.FabricNameTaken:
      return GraphQLErrorCode.Conflict;
    case FabricsErrorCode.InstallationInvalid:
    case FabricsErrorCode.SourceAmbiguous:
    case FabricsErrorCode.ChipFilterInvalid:
      return GraphQLErrorCode.BadUserInput;
    default:
      return assertUnreachable(code);
  }
}

function authCode(code: AuthErrorCode): GraphQLErrorCode {
  switch (code) {
    case AuthErrorCode.KeyMissing:
    case AuthErrorCode.KeyInvalid:
    case AuthErrorCode.KeyRevoked:
      return GraphQLErrorCode.Unauthenticated;
    case AuthErrorCode.RoleInsufficient:
      return GraphQLErrorCode.Forbidden;
    case AuthErrorCode.KeyNotFound:
      return GraphQLErrorCode.NotFound;
    default:
      return assertUnreachable(code);
  }
}

function eventsCode(code: EventsErrorCode): GraphQLErrorCode {
  switch (code) {
    case EventsErrorCode.EventNotFound:
      return GraphQLErrorCode.NotFound;
    case EventsErrorCode.AlreadyAcknowledged:
      return GraphQLErrorCode.Conflict;
    case EventsErrorCode.CursorPruned:
      return GraphQLErrorCode.NotFound;
    default:
      return assertUnreachable(code);
  }
}

function faultsCode(code: FaultsErrorCode): GraphQLErrorCode {
  switch (code) {
    case FaultsErrorCode.FaultNotFound:
      return GraphQLErrorCode.NotFound;
    case FaultsErrorCode.FaultTargetInvalid:
      return GraphQLErrorCode.BadUserInput;
    case FaultsErrorCode.FaultAlreadyActive:
      return GraphQLErrorCode.Conflict;
    default:
      return assertUnreachable(code);
  }
}

function controlCode(code: ControlErrorCode): GraphQLErrorCode {
  switch (code) {
    case ControlErrorCode.GenerationNotFound:
    case ControlErrorCode.RouterNotConfigured:
    case ControlErrorCode.AnalysisNotFound:
      return GraphQLErrorCode.NotFound;
    case ControlErrorCode.AnalysisInvalid:
    case ControlErrorCode.SettingsInvalid:
      return GraphQLErrorCode.BadUserInput;
    default:
      return assertUnreachable(code);
  }
}

function drillsCode(code: DrillsErrorCode): GraphQLErrorCode {
  switch (code) {
    case DrillsErrorCode.DrillInvalid:
      return GraphQLErrorCode.BadUserInput;
    case DrillsErrorCode.DrillNotFound:
    case DrillsErrorCode.RunNotFound:
      return GraphQLErrorCode.NotFound;
    default:
      return assertUnreachable(code);
  }
}

function trafficCode(code: TrafficErrorCode): GraphQLErrorCode {
  switch (code) {
    case TrafficErrorCode.RequestInvalid:
      return GraphQLErrorCode.BadUserInput;
    case TrafficErrorCode.RunInProgress:
      return GraphQLErrorCode.Conflict;
    case TrafficErrorCode.RunNotFound:
      return GraphQLErrorCode.NotFound;
    default:
      return assertUnreachable(code);
  }
}

function studiesCode(code: StudiesErrorCode): GraphQLErrorCode {
  switch (code) {
    case StudiesErrorCode.StudyNotFound:
      return GraphQLErrorCode.NotFound;
    case StudiesErrorCode.RequestInvalid:
      return GraphQLErrorCode.BadUserInput;
    case StudiesErrorCode.NotConfigured:
      return GraphQLErrorCode.Conflict;
    case StudiesErrorCode.QueueUnavailable:
      return GraphQLErrorCode.Unavailable;
    default:
      return assertUnreachable(code);
  }
}

function paginationCode(code: PaginationErrorCode): GraphQLErrorCode {
  switch (code) {
    case PaginationErrorCode.CursorInvalid:
      return GraphQLErrorCode.BadUserInput;
    default:
      return assertUnreachable(code);
  }
}

/** Maps anything a resolver throws to one GraphQL error with a code and a human message. */
export function toGraphQLError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) return error;
  if (error instanceof FabricsException) return withCode(error.message, fabricsCode(error.code), error.code, error.details);
  if (error instanceof AuthException) return withCode(error.message, authCode(error.code), error.code);
  if (error instanceof EventsException) return withCode(error.message, eventsCode(error.code), error.code);
  if (error instanceof FaultsException) return withCode(error.message, faultsCode(error.code), error.code);
  if (error instanceof ControlException) return withCode(error.message, controlCode(error.code), error.code, error.details);
  if (error instanceof TrafficException) return withCode(error.message, trafficCode(error.code), error.code, error.details);
  if (error instanceof DrillsException) return withCode(error.message, drillsCode(error.code), error.code, error.details);
  if (error instanceof StudiesException) return withCode(error.message, studiesCode(error.code), error.code, error.details);
  if (error instanceof ManagerException) return withCode(error.message, GraphQLErrorCode.NotActive, error.code, error.details);
  if (error instanceof PaginationException) return withCode(error.message, paginationCode(error.code), error.code);
  if (error instanceof BadRequestException) {
    // The global ValidationPipe: its response lists every failed constraint.
    const response = error.getResponse() as { message?: string | string[] };
    const messages = Array.isArray(response.message) ? response.message : [response.message ?? error.message];
    return withCode(`invalid input: ${messages.join('; ')}`, GraphQLErrorCode.BadUserInput, 'VALIDATION_FAILED', { problems: messages });
  }
  if (error instanceof UnauthorizedException) return withCode(error.message, GraphQLErrorCode.Unauthenticated, 'UNAUTHENTICATED');
  if (error instanceof ForbiddenException) return withCode(error.message, GraphQLErrorCode.Forbidden, 'FORBIDDEN');
  if (error instanceof NotFoundException) return withCode(error.message, GraphQLErrorCode.NotFound, 'NOT_FOUND');
  if (error instanceof HttpException) return withCode(error.message, GraphQLErrorCode.BadUserInput, 'HTTP_' + error.getStatus());
  // Nobody reads it (the client went away); said plainly for the log and the audit.
  if (error instanceof HeavyWorkCancelled) return withCode(error.message, GraphQLErrorCode.BadUserInput, 'CANCELLED');
  if (isStoreFull(error)) {
    return withCode(
      'the store is full: nothing was written. Reads still work; free disk space (or raise WEFT_STORE_MAX_MB) and try again',
      GraphQLErrorCode.StoreFull,
      'STORE_FULL',
    );
  }
  return withCode('internal error; the service log has the details', GraphQLErrorCode.InternalServerError, 'INTERNAL');
}

function withCode(message: string, code: GraphQLErrorCode, reason: string, details: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code, reason, ...details } });
}

/** Apollo's own request errors (unparsable query, unknown field, wrong variable type) become
 * BAD_USER_INPUT too, keeping Apollo's code as the reason; stack traces never leave the service. */
export function formatGraphQLError(formatted: GraphQLFormattedError): GraphQLFormattedError {
  const code = formatted.extensions?.code as string | undefined;
  const known = Object.values(GraphQLErrorCode) as string[];
  const { stacktrace: _stacktrace, ...extensions } = formatted.extensions ?? {};
  const variableCoercion = /^Variable "\$\w+" (got invalid value|has invalid value|of required type|of non-null type)/.test(formatted.message);
  if (code && known.includes(code) && !variableCoercion) return { ...formatted, extensions };
  if (code === 'GRAPHQL_VALIDATION_FAILED' || code === 'GRAPHQL_PARSE_FAILED' || code === 'BAD_REQUEST' || variableCoercion) {
    return { ...formatted, extensions: { ...extensions, code: GraphQLErrorCode.BadUserInput, reason: variableCoercion ? 'VARIABLE_INVALID' : code } };
  }
  return { ...formatted, extensions: { ...extensions, code: code ?? GraphQLErrorCode.InternalServerError } };
}
