/**
 * What the Apollo Client tests (`test/server.clients.apollo.*.test.ts`) share on top of
 * client-fixtures.ts: a client on a given link with no cache between requests, the answer they
 * select and its check against the reference's, and the GraphQL errors of an Apollo error.
 */
import { ApolloClient, type ApolloLink, CombinedGraphQLErrors, InMemoryCache } from '@apollo/client';
import type { GraphQLFormattedError } from 'graphql';
import { expect } from 'vitest';
import { type ExpectedAnswer, selectedAnswerWithTypenames } from './client-fixtures.js';

/** A client on `link`; no cache between requests, so every query in a test reaches the server. */
export function client(link: ApolloLink): ApolloClient {
  return new ApolloClient({
    link,
    cache: new InMemoryCache(),
    defaultOptions: { query: { fetchPolicy: 'no-cache' }, mutate: { fetchPolicy: 'no-cache' } },
  });
}

/** The GraphQL errors of an Apollo error, or a failure naming what came instead. */
export function graphQLErrors(error: unknown): readonly GraphQLFormattedError[] {
  if (!CombinedGraphQLErrors.is(error)) throw new Error(`expected GraphQL errors, got ${String(error)}`);
  return error.errors;
}

/** A shortest-paths answer as the documents select it. */
export interface Answer {
  distance: number | null;
  pathCount: string;
  path: { squares: string[] } | null;
}

/** Checks an answer as Apollo Client gives it against the reference's. */
export function expectAnswer(actual: Answer | null | undefined, expected: ExpectedAnswer): void {
  expect(actual).toEqual(selectedAnswerWithTypenames(expected));
}
