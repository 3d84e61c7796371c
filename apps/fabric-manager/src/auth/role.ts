/** Roles, spelled the same in the store, in GraphQL and on the command line. */
export enum Role {
  viewer = 'viewer',
  operator = 'operator',
  admin = 'admin',
}
