// What a masto.js app does first, against socialsite's client API: log in with a token, read the instance and
// the home timeline, post, and stream home over the WebSocket. Prints one JSON line for
// api/tests/test_masto_js.py to check.
// Usage: node check.js <base url> <access token>
import { createRestAPIClient, createStreamingAPIClient } from "masto";

const [url, accessToken] = process.argv.slice(2);
const masto = createRestAPIClient({ url, accessToken });

const me = await masto.v1.accounts.verifyCredentials();
const instance = await masto.v2.instance.fetch();
const posted = await masto.v1.statuses.create({ status: "Hello from masto.js #js" });
const home = await masto.v1.timelines.home.list({ limit: 5 });
const favourited = await masto.v1.statuses.$select(posted.id).favourite();
let missing = null;
try {
  await masto.v1.statuses.$select("999999999").fetch();
} catch (error) {
  missing = error.statusCode ?? String(error);
}
// The user stream over the WebSocket: subscribe, wait until the server holds the subscription (its hub counters),
// then post and wait for the update.
const subscriptions = async () => (await (await fetch(`${url}/statuses/hub.json`)).json()).subscriptions;
const before = await subscriptions();
const streaming = createStreamingAPIClient({ streamingApiUrl: url.replace(/^http/, "ws"), accessToken, retry: false });
const subscription = streaming.user.subscribe();
const events = subscription[Symbol.asyncIterator]();
const first = events.next();
while ((await subscriptions()) <= before) {
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const live = await masto.v1.statuses.create({ status: "streamed to masto.js" });
const { value: event } = await first;
subscription.unsubscribe();
streaming.close();

console.log(
  JSON.stringify({
    live: live.id,
    streamed: event.event === "update" ? event.payload.id : `${event.event}`,
    username: me.username,
    version: instance.version,
    posted: posted.id,
    tags: posted.tags.map((tag) => tag.name),
    home: home.map((status) => status.id),
    favourited: favourited.favourited,
    missing,
  }),
);
