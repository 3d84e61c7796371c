import { Type } from '@nestjs/common';
import { ArgsType, Field, Int, ObjectType } from '@nestjs/graphql';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { PaginationException } from './pagination.exception';

/** Forward paging arguments shared by every list: bounded page size, opaque cursor. */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { defaultValue: 100, description: 'Page size, 1 to 500.' })
  @IsInt()
  @Min(1)
  @Max(500)
  first: number = 100;

  @Field(() => String, { nullable: true, description: 'Return items after this cursor (an endCursor of an earlier page).' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  after?: string;
}

@ObjectType()
export class PageInfo {
  @Field(() => String, { nullable: true })
  endCursor!: string | null;

  @Field()
  hasNextPage!: boolean;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface Connection<T> {
  edges: Edge<T>[];
  pageInfo: PageInfo;
  totalCount: number;
}

/** Builds a `XConnection` type for a node type (Relay-style, forward only). */
export function ConnectionType<T>(node: Type<T>, name: string): Type<Connection<T>> {
  @ObjectType(`${name}Edge`)
  class EdgeType {
    @Field()
    cursor!: string;

    @Field(() => node)
    node!: T;
  }

  @ObjectType(`${name}Connection`)
  class ConnectionClass {
    @Field(() => [EdgeType])
    edges!: EdgeType[];

    @Field(() => PageInfo)
    pageInfo!: PageInfo;

    @Field(() => Int, { description: 'Items matching the filter, over all pages.' })
    totalCount!: number;
  }
  return ConnectionClass as Type<Connection<T>>;
}

export function encodeCursor(id: number): string {
  return Buffer.from(`id:${id}`).toString('base64url');
}

/** Cursors are ids in disguise; a cursor that is not one of ours is the caller's mistake. */
export function decodeCursor(cursor: string | null | undefined): number {
  if (cursor === undefined || cursor === null) return 0;
  const text = Buffer.from(cursor, 'base64url').toString();
  const match = /^id:(\d{1,15})$/.exec(text);
  if (!match) throw new PaginationException(`"after": "${cursor}" is not a cursor this API returned`);
  return Number(match[1]);
}

/** Turns a page fetched with `first + 1` rows into a connection. */
export function toConnection<T extends { id: number }>(rows: T[], first: number, totalCount: number): Connection<T> {
  const page = rows.slice(0, first);
  const edges = page.map((node) => ({ cursor: encodeCursor(node.id), node }));
  return {
    edges,
    pageInfo: { endCursor: edges.length ? edges[edges.length - 1].cursor : null, hasNextPage: rows.length > first },
    totalCount,
  };
}
