-- Several user hashes in one call (store.users.get_users on a single server): a pipeline of HGETALLs costs the
-- client a command to pack and a reply to parse per user, and a page of the client API names some twenty.
-- User hashes live in different slots, so the script is never sent to a Redis Cluster (the pipeline is, there).
-- KEYS     the user hashes (user:{uid}), in the order wanted
-- ARGV     none
-- returns  one flat array per key (HGETALL's field, value, field, value...), empty for a missing hash
local hashes = {}
for i, key in ipairs(KEYS) do
    hashes[i] = redis.call("HGETALL", key)
end
return hashes
