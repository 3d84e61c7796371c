export * from './emulated-fabric';
