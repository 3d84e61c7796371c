export * from './maintenance-transport';
export * from './discovery/discovery-sweep';
export * from './discovery/match-design';
