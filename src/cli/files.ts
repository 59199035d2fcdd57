/**
 * What went wrong with a file a command was given, in words ("no such file"), not as a Node
 * error dump ("Error: ENOENT: no such file or directory, open ..."): the path is already in the
 * message the caller prints.
 */
const WORDS: Record<string, string> = {
  ENOENT: 'no such file',
  ENOTDIR: 'a folder on its path is a file',
  EISDIR: 'it is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EMFILE: 'too many open files',
};

export function fileProblem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code && WORDS[code]) return WORDS[code];
  return code ?? (err instanceof Error ? err.message : String(err));
}
