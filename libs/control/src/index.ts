export * from './maintenance-transport';
