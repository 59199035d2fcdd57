/**
 * Worker threads load modules by URL. Built code runs `.js`; under tsx/vitest the source is
 * `.ts`, so the sibling `.ts` file is used and the worker is started with tsx's loader.
 */
export function siblingModule(fromUrl: string, name: string): { filename: string; execArgv: string[] } {
  const fromTs = fromUrl.endsWith('.ts');
  const filename = new URL(fromTs ? name.replace(/\.js$/, '.ts') : name, fromUrl).href;
  return { filename, execArgv: fromTs ? ['--import', 'tsx'] : [] };
}

/** execArgv a worker needs to load `moduleUrl` (tsx for TypeScript sources). */
export function execArgvFor(moduleUrl: string): string[] {
  return moduleUrl.endsWith('.ts') ? ['--import', 'tsx'] : [];
}
