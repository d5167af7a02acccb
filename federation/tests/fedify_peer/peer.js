// An independent ActivityPub peer written with Fedify (npm @fedify/fedify, pinned in package-lock.json), for
// federation/tests/test_fedify_peer.py. It serves one actor, "peer", on 127.0.0.1:<port> (argv[2]), keeps in
// memory what its inbox received (after Fedify verified each request's HTTP Signature), and takes orders from
// the test on /control/...: resolve a person by WebFinger, follow them, like or reply to a post, unfollow.
import { createServer } from "node:http";
import {
  Accept,
  Create,
  Endpoints,
  Follow,
  Like,
  MemoryKvStore,
  Note,
  Person,
  Undo,
  createFederation,
  generateCryptoKeyPair,
  lookupWebFinger,
} from "@fedify/fedify";

const port = Number(process.argv[2]);
const origin = `http://127.0.0.1:${port}`;
const received = [];
let keys = null;
let follow = null;

const federation = createFederation({ kv: new MemoryKvStore(), allowPrivateAddress: true, origin });

federation
  .setActorDispatcher("/users/{identifier}", async (ctx, identifier) => {
    if (identifier !== "peer") return null;
    const pairs = await ctx.getActorKeyPairs(identifier);
    return new Person({
      id: ctx.getActorUri(identifier),
      preferredUsername: identifier,
      name: "Fedify Peer",
      inbox: ctx.getInboxUri(identifier),
      endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
      followers: ctx.getFollowersUri(identifier),
      publicKey: pairs[0].cryptographicKey,
    });
  })
  .setKeyPairsDispatcher(async (_data, identifier) => {
    if (identifier !== "peer") return [];
    keys ??= await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
    return [keys];
  });
federation.setFollowersDispatcher("/users/{identifier}/followers", async () => ({ items: [] }));

function record(kind) {
  return async (ctx, activity) => {
    const object = await activity.getObject({ documentLoader: ctx.documentLoader }).catch(() => null);
    received.push({
      type: kind,
      id: activity.id?.href ?? null,
      actor: activity.actorId?.href ?? null,
      object: object?.id?.href ?? null,
      content: object instanceof Note ? String(object.content ?? "") : null,
    });
  };
}

federation
  .setInboxListeners("/users/{identifier}/inbox", "/inbox")
  .on(Accept, record("Accept"))
  .on(Create, record("Create"))
  .on(Undo, record("Undo"));

async function control(url) {
  const ctx = federation.createContext(new URL(origin), undefined);
  const me = ctx.getActorUri("peer");
  const sender = { identifier: "peer" };
  const target = url.searchParams.get("target");
  if (url.pathname === "/control/resolve" || url.pathname === "/control/follow") {
    // WebFinger on the person's server (an http URL names the server and scheme; acct: would mean https).
    const found = await lookupWebFinger(new URL(target), { allowPrivateAddress: true });
    const self = found?.links?.find((link) => link.rel === "self");
    if (!self) return { error: "not found by WebFinger" };
    const actor = await ctx.lookupObject(self.href);
    if (!actor) return { error: "actor not fetched" };
    if (url.pathname === "/control/resolve") {
      return { id: actor.id.href, name: String(actor.name ?? ""), inbox: actor.inboxId?.href ?? null };
    }
    follow = new Follow({ id: new URL(`${me.href}#follows/${Date.now()}`), actor: me, object: actor.id });
    await ctx.sendActivity(sender, actor, follow, { immediate: true });
    return { sent: follow.id.href };
  }
  const actor = await ctx.lookupObject(url.searchParams.get("actor"));
  if (url.pathname === "/control/like") {
    const like = new Like({ id: new URL(`${me.href}#likes/${Date.now()}`), actor: me, object: new URL(target) });
    await ctx.sendActivity(sender, actor, like, { immediate: true });
    return { sent: like.id.href };
  }
  if (url.pathname === "/control/reply") {
    const id = new URL(`${me.href}/notes/${Date.now()}`);
    const note = new Note({
      id,
      attribution: me,
      content: url.searchParams.get("text"),
      replyTarget: new URL(target),
      to: new URL("https://www.w3.org/ns/activitystreams#Public"),
    });
    const create = new Create({ id: new URL(`${id.href}/activity`), actor: me, object: note, to: note.toId });
    await ctx.sendActivity(sender, actor, create, { immediate: true });
    return { sent: create.id.href };
  }
  if (url.pathname === "/control/unfollow") {
    const undo = new Undo({ id: new URL(`${me.href}#undo/${Date.now()}`), actor: me, object: follow });
    await ctx.sendActivity(sender, actor, undo, { immediate: true });
    return { sent: undo.id.href };
  }
  return { error: "unknown order" };
}

createServer(async (incoming, outgoing) => {
  const url = new URL(incoming.url, origin);
  try {
    if (url.pathname === "/control/received") {
      outgoing.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(received));
      return;
    }
    if (url.pathname.startsWith("/control/")) {
      const answer = await control(url);
      outgoing.writeHead(answer.error ? 400 : 200, { "Content-Type": "application/json" });
      outgoing.end(JSON.stringify(answer));
      return;
    }
    const chunks = [];
    for await (const chunk of incoming) chunks.push(chunk);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const request = new Request(url, {
      method: incoming.method,
      headers: Object.entries(incoming.headers).flatMap(([name, value]) =>
        Array.isArray(value) ? value.map((item) => [name, item]) : [[name, value]],
      ),
      body: incoming.method === "GET" || incoming.method === "HEAD" ? undefined : body,
    });
    const response = await federation.fetch(request, { contextData: undefined });
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  } catch (error) {
    outgoing.writeHead(500, { "Content-Type": "text/plain" }).end(String(error?.stack ?? error));
  }
}).listen(port, "127.0.0.1", () => console.log(`listening on ${origin}`));
