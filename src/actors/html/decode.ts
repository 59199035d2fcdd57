import iconv from 'iconv-lite';

/**
 * Bytes of a fetched page to text. The charset comes from the Content-Type header, else a
 * BOM, else `<meta charset>` / `http-equiv` in the first 2 KB, else UTF-8. Unknown charsets
 * fall back to UTF-8 (with replacement characters) rather than failing the page.
 */
export function decodePage(body: Buffer, contentType: string | null): string {
  const charset = charsetOf(body, contentType);
  if (charset === 'utf-8' || charset === 'utf8' || !iconv.encodingExists(charset)) {
    return body.toString('utf8').replace(/^\uFEFF/, '');
  }
  return iconv.decode(body, charset);
}

function charsetOf(body: Buffer, contentType: string | null): string {
  if (body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body.length >= 2 && body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body.length >= 2 && body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  const fromHeader = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '');
  if (fromHeader) return normalise(fromHeader[1]!);
  const head = body.subarray(0, 2048).toString('latin1');
  const fromMeta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head) ?? /<\?xml[^>]+encoding\s*=\s*["']([\w.:-]+)/i.exec(head);
  return fromMeta ? normalise(fromMeta[1]!) : 'utf-8';
}

function normalise(label: string): string {
  const l = label.toLowerCase();
  // browsers decode latin1/iso-8859-1 as windows-1252 (the WHATWG encoding standard)
  return l === 'iso-8859-1' || l === 'latin1' || l === 'us-ascii' || l === 'ascii' ? 'windows-1252' : l;
}
