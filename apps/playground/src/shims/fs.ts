// `node:fs` in the browser: there is no disk. The PillarStack loader reads the in-memory tree through its `files`
// option and never calls these; @merge/jinja reads files a template imports (`import_yaml`, `include`) through
// `node:fs` directly, so in the playground such an import is "not found" (see the README's limits).
function noDisk(name: string): never {
  throw new Error(`ENOENT: no file system in the browser (${name})`);
}

export const existsSync = (): boolean => false;
export const statSync = (path: string): never => noDisk(path);
export const lstatSync = (path: string): never => noDisk(path);
export const readFileSync = (path: string): never => noDisk(path);
export const readdirSync = (path: string): never => noDisk(path);
export const realpathSync = (path: string): never => noDisk(path);

export default { existsSync, statSync, lstatSync, readFileSync, readdirSync, realpathSync };
