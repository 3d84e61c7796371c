export * from './maintenance-transport';
export * from './discovery/discovery-sweep';
export * from './discovery/match-design';
export * from './blackwidow/blackwidow-engine';
export * from './blackwidow/push-image';
export * from './blackwidow/verifier';
export * from './blackwidow/fault-entries';
export * from './policy/link-policy';
