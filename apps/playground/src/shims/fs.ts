// `node:fs` in the browser: there is no disk. The PillarStack loader reads the in-memory tree through its `files`
// option and hands it to @merge/jinja's renderer, which reads files a template imports (`import_yaml`, `include`) and
// answers `file.file_exists` through it: nothing calls these. They remain for the default file systems the packages
// define (built, never used, in the page).
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
