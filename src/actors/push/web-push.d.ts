/** The part of the `web-push` package (CommonJS, no types of its own) that sender.ts uses. */
declare module 'web-push' {
  export interface RequestDetails {
    method: 'POST';
    headers: Record<string, string | number>;
    body: Buffer | null;
    endpoint: string;
  }
  export interface RequestOptions {
    vapidDetails: { subject: string; publicKey: string; privateKey: string } | null;
    TTL?: number;
    urgency?: 'very-low' | 'low' | 'normal' | 'high';
    topic?: string;
    contentEncoding?: 'aes128gcm' | 'aesgcm';
  }
  /** (only the default export: Node's ESM loader finds no named exports in the package) */
  const webPush: {
    generateRequestDetails(
      subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
      payload: string | Buffer | null,
      options: RequestOptions,
    ): RequestDetails;
    /** `expiration`: seconds since the epoch, at most 24 h ahead */
    getVapidHeaders(audience: string, subject: string, publicKey: string, privateKey: string, contentEncoding: 'aes128gcm', expiration?: number): { Authorization: string };
  };
  export default webPush;
}
