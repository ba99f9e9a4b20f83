import { exportedSymbols } from './elf-symbols.js';

/**
 * How a native Node module registers itself, which decides the runtimes that can load it: a
 * Node-API module (`napi_register_module_v1`) loads in any Node or Electron; any other exports
 * `node_register_module_v<ABI>` and loads only where NODE_MODULE_VERSION is that ABI.
 */
export type NativeModuleKind = { kind: 'node-api' } | { kind: 'abi'; abi: number } | { kind: 'unregistered' };

const abiRegistration = /^node_register_module_v(\d+)$/;

export function nativeModuleKind(binary: Buffer): NativeModuleKind {
  const symbols = exportedSymbols(binary);
  for (const symbol of symbols) {
    const abi = abiRegistration.exec(symbol)?.[1];
    if (abi) return { kind: 'abi', abi: Number(abi) };
  }
  return symbols.includes('napi_register_module_v1') ? { kind: 'node-api' } : { kind: 'unregistered' };
}

export function describeKind(kind: NativeModuleKind): string {
  switch (kind.kind) {
    case 'node-api':
      return 'Node-API';
    case 'abi':
      return `built for ABI ${kind.abi}`;
    case 'unregistered':
      return 'registers no Node module';
  }
}
