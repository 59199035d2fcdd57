/**
 * Push alerts (Web Push: RFC 8030, 8291, 8292): the public surface the roles and the API use.
 * alerts.ts turns live events into queued alerts, deliverer.ts (the actor) sends them through
 * sender.ts under policy.ts, subscriptions.ts keeps what readers asked for.
 */
export { PushAlerts, alertItem, candidatesOf, storyAlertKeys } from './alerts.js';
export { PUSH_DELIVERER, delivererBehaviour, type DelivererMsg, type DeliveryOutcome } from './deliverer.js';
export { ENDPOINT_MAX, PushEndpointError, checkEndpoint } from './endpoint.js';
export { alertPayload, type AlertPayload } from './payload.js';
export { inQuietHours, judge, localDay, parseClock } from './policy.js';
export { PushSender, topicOf } from './sender.js';
export { PUSH_CHANNEL, PushSubscriptions, type PushSubscriptionView, type SubscriptionInput } from './subscriptions.js';
export { VapidKeyError, generateVapidKeys, vapidKeysFromPrivate, type VapidKeys } from './vapid.js';
