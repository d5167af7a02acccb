-- The one round trip of a page of statuses on a single Redis server (store.pages): the page's ids, what each
-- entry needs besides the immutable fields a reader caches (store.pages explains why those never go stale),
-- the viewer's likes and reposts of what the page shows, and the policy's relations between the viewer and
-- the page's authors. It reads status hashes named by the timeline's members, so it is never sent to a
-- Redis Cluster (store.pages reads the same there in a few pipelines).
-- KEYS[1]  the timeline ZSET (home:{uid}, profile:{uid}, list:statuses:{id}, tag timeline), or any key in
--          "ids" mode
-- KEYS[2]  its owner's hash, only checked for existence when the timeline is empty
-- KEYS[3]  users:suspended   SET
-- KEYS[4]  users:limited     SET
-- KEYS[5..10] with a viewer: likes:{v} ZSET, user:reposts:{v} HASH, blocks:{v}, blocked:by:{v}, mutes:{v},
--          following:{v} ZSETs
-- KEYS[11..12] in "merged" mode: pulled:authors ZSET, and following:{owner} ZSET (merge_pulled.lua)
-- ARGV[1]  "timeline" (read a page of KEYS[1]), "merged" (a home page with the pulled posts of the accounts
--          its owner follows merged in: hybrid fan-out, store.pulled) or "ids" (read the ids ARGV[7..])
-- ARGV[2]  max_id, ARGV[3] since_id, ARGV[4] offset, ARGV[5] count (page_ids.lua; "timeline" and "merged")
-- ARGV[6]  a status key with "\0" where its id goes (keys.status)
-- ARGV[7]  "merged" mode: a pulled:{uid} key with "\0" where the uid goes; ARGV[8] how many accounts to merge
-- returns  false when the timeline is empty and its owner does not exist; else {ids, entries, authors}:
--          ids      {id, ...} newest first
--          entries  17 values per id: posted, uid, repost_of, reply_count, repost_count, like_count,
--                   in_reply_to_deleted of the status (uid false: deleted; repost_of false: not a repost), the
--                   same but repost_of for a repost's original (uid false: not a repost, or deleted), then liked
--                   and reposted (1/0) of the status shown, then the edits (the version: 0 when never edited)
--                   of the status and of the original; uids and counts as integers (0 when absent), posted
--                   as integer microseconds, or as the text of seconds of a hash written before
--                   store.status_hash's layout
--          authors  7 values per author of a shown status or original: uid, suspended, limited, then (1/0)
--                   the viewer blocks them, is blocked by them, mutes them, follows them
-- include: page_ids
-- include: merge_pulled
local ids
if ARGV[1] == 'timeline' then
  ids = page_ids(KEYS[1], KEYS[2], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]))
  if not ids then
    return false
  end
elseif ARGV[1] == 'merged' then
  -- The first offset + count of the home and of each merged account, merged, then the page cut out of them.
  local offset, count = tonumber(ARGV[4]), tonumber(ARGV[5])
  local home = page_ids(KEYS[1], KEYS[2], tonumber(ARGV[2]), tonumber(ARGV[3]), 0, offset + count)
  if not home then
    return false
  end
  local merged = merge_pulled(home, KEYS[11], KEYS[12], ARGV[7], ARGV[2], ARGV[3], offset + count, tonumber(ARGV[8]))
  ids = {}
  for i = offset + 1, math.min(offset + count, #merged) do
    ids[#ids + 1] = merged[i]
  end
else
  ids = {}
  for i = 7, #ARGV do
    ids[#ids + 1] = ARGV[i]
  end
end
local prefix, suffix = string.match(ARGV[6], '^(.*)%z(.*)$')
local viewer = #KEYS >= 10

local entries, shown, authors, seen = {}, {}, {}, {}
-- A status's posted time: integer microseconds (an integer reply) under 'P', or text of seconds under
-- 'posted' in hashes written before store.status_hash's layout; false when the status is gone.
local function posted(text, micros)
  if micros then
    return tonumber(micros)
  end
  return text
end
local function author(uid)
  if uid and not seen[uid] then
    seen[uid] = true
    authors[#authors + 1] = uid
  end
end
for _, id in ipairs(ids) do
  local status = redis.call('HMGET', prefix .. id .. suffix, 'posted', 'uid', 'repost_of', 'reply_count',
    'repost_count', 'like_count', 'in_reply_to_deleted', 'P', 'edits')
  entries[#entries + 1] = posted(status[1], status[8])
  entries[#entries + 1] = tonumber(status[2]) or false
  entries[#entries + 1] = status[2] and tonumber(status[3]) or false
  for i = 4, 7 do
    entries[#entries + 1] = status[2] and tonumber(status[i]) or 0
  end
  local original = { false, false, false, false, false, false, false, false }
  local shown_id = id
  if status[2] and status[3] then
    original = redis.call('HMGET', prefix .. status[3] .. suffix, 'posted', 'uid', 'reply_count', 'repost_count',
      'like_count', 'in_reply_to_deleted', 'P', 'edits')
    original[1] = posted(original[1], original[7])
    shown_id = status[3]
    author(original[2])
  end
  entries[#entries + 1] = original[1]
  entries[#entries + 1] = tonumber(original[2]) or false
  for i = 3, 6 do
    entries[#entries + 1] = original[2] and tonumber(original[i]) or 0
  end
  entries[#entries + 1] = 0
  entries[#entries + 1] = 0
  entries[#entries + 1] = status[2] and tonumber(status[9]) or 0
  entries[#entries + 1] = original[2] and tonumber(original[8]) or 0
  shown[#shown + 1] = shown_id
  author(status[2])
end

if viewer and #shown > 0 then
  local liked = redis.call('ZMSCORE', KEYS[5], unpack(shown))
  local reposted = redis.call('HMGET', KEYS[6], unpack(shown))
  for i = 1, #shown do
    if liked[i] then
      entries[17 * i - 3] = 1
    end
    if reposted[i] then
      entries[17 * i - 2] = 1
    end
  end
end

local flat = {}
if #authors > 0 then
  local suspended = redis.call('SMISMEMBER', KEYS[3], unpack(authors))
  local limited = redis.call('SMISMEMBER', KEYS[4], unpack(authors))
  local relations = {}
  for k = 7, 10 do
    if viewer then
      relations[k] = redis.call('ZMSCORE', KEYS[k], unpack(authors))
    else
      relations[k] = {}
    end
  end
  for i, uid in ipairs(authors) do
    flat[#flat + 1] = tonumber(uid)
    flat[#flat + 1] = suspended[i]
    flat[#flat + 1] = limited[i]
    for k = 7, 10 do
      flat[#flat + 1] = relations[k][i] and 1 or 0
    end
  end
end
local numbers = {}
for i, id in ipairs(ids) do
  numbers[i] = tonumber(id)
end
return { numbers, entries, flat }
