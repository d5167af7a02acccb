-- The one round trip of a page of statuses on a single Redis server (store.pages): the page's ids, what each
-- entry needs besides the immutable fields a reader caches (store.pages explains why those never go stale),
-- the viewer's likes, reposts and bookmarks of what the page shows, and the policy's relations between the viewer and
-- the page's authors. It reads status hashes named by the timeline's members, so it is never sent to a
-- Redis Cluster (store.pages reads the same there in a few pipelines).
-- Lua is the slowest part of a page on the server (each instruction costs about what a C command spends on a
-- small key), so the script leaves every conversion to the reader. What costs most is the number of values
-- crossing over: each one a status hash's HMGET hands to Lua is converted again into the reply, and parsed
-- again by the client. So each status travels as one text of its fields (Lua joins them in one step), and the
-- authors and whom the viewer follows as one text each.
-- KEYS[1]  the timeline ZSET (home:{uid}, profile:{uid}, list:statuses:{id}, tag timeline), or any key in
--          "ids" mode
-- KEYS[2]  its owner's hash, only checked for existence when the timeline is empty
-- KEYS[3]  users:suspended   SET
-- KEYS[4]  users:limited     SET
-- KEYS[5..11] with a viewer: likes:{v} ZSET, user:reposts:{v} HASH, blocks:{v}, blocked:by:{v}, mutes:{v},
--          following:{v}, bookmarks:{v} ZSETs
-- KEYS[12..13] in "merged" mode: pulled:authors ZSET, and following:{owner} ZSET (merge_pulled.lua)
-- ARGV[1]  "timeline" (read a page of KEYS[1]), "merged" (a home page with the pulled posts of the accounts
--          its owner follows merged in: hybrid fan-out, store.pulled) or "ids" (read the ids ARGV[8..])
-- ARGV[2]  max_id, ARGV[3] since_id, ARGV[4] offset, ARGV[5] count (page_ids.lua; "timeline" and "merged")
-- ARGV[6], ARGV[7]  a status key's text before and after its id (keys.status: "status:{", "}"), apart so the
--          script need not split a template (a pattern match costs about what two small commands cost)
-- ARGV[8]  "merged" mode: a pulled:{uid} key with "\0" where the uid goes; ARGV[9] how many accounts to merge
-- returns  false when the timeline is empty and its owner does not exist; else {rows, originals, liked,
--          reposted, bookmarked, authors, suspended, limited, blocks, blocked_by, mutes, follows}:
--          rows      per id, newest first, the text "<id> <P> <uid> <repost_of> <reply_count> <repost_count>
--                    <like_count> <in_reply_to_deleted> <edits> <posted>", each field empty when the hash has
--                    none (uid empty: deleted; posted, the older layout's, last, read only without P)
--          originals per id that is a repost of a status that exists, in order: "<P> <uid> <reply_count>
--                    <repost_count> <like_count> <in_reply_to_deleted> <edits> <posted>" of the original (false:
--                    none)
--          liked, reposted, bookmarked: ZMSCORE / HMGET replies for the status each id shows (the original,
--                    for a repost); false without a viewer or when the viewer's set does not exist
--          authors   the distinct uids of the statuses and originals shown, separated by spaces; suspended,
--                    limited: SMISMEMBER of them, false when the set does not exist
--          blocks, blocked_by, mutes: per author, a score when the viewer blocks them, is blocked by them, mutes
--                    them (else false); false without a viewer or when the viewer's set does not exist
--          follows   per author, "1" when the viewer follows them, else "0", in one text; false without a viewer
-- include: page_ids
-- include: merge_pulled
local viewer = #KEYS >= 11
-- The optional sets: the viewer's likes, reposts, blocks, blocked-by, mutes and bookmarks, the site's suspended and
-- limited accounts and, for a merged home, the registry of pulled accounts. Most reads find none of them (most
-- viewers have none, most sites no moderated account, no account above the pull threshold): one EXISTS of all of
-- them answers for those, and only when some exists is each asked on its own.
local optional = false
local ids
if ARGV[1] == 'ids' then
  ids = {}
  for i = 8, #ARGV do
    ids[#ids + 1] = ARGV[i]
  end
else
  local offset, count = tonumber(ARGV[4]), tonumber(ARGV[5])
  if ARGV[1] == 'merged' then
    optional = redis.call('EXISTS', KEYS[12], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[11], KEYS[3],
      KEYS[4]) > 0
  end
  if optional then
    -- The first offset + count of the home and of each merged account, merged, then the page cut out of them.
    local home = page_ids(KEYS[1], KEYS[2], tonumber(ARGV[2]), tonumber(ARGV[3]), 0, offset + count)
    if not home then
      return false
    end
    local merged = merge_pulled(home, KEYS[12], KEYS[13], ARGV[8], ARGV[2], ARGV[3], offset + count,
      tonumber(ARGV[9]))
    ids = {}
    for i = offset + 1, math.min(offset + count, #merged) do
      ids[#ids + 1] = merged[i]
    end
  else
    ids = page_ids(KEYS[1], KEYS[2], tonumber(ARGV[2]), tonumber(ARGV[3]), offset, count)
    if not ids then
      return false
    end
  end
end
if #ids == 0 then
  return { ids, false, false, false, false, '', false, false, false, false, false, false }
end
if ARGV[1] ~= 'merged' then
  if viewer then
    optional = redis.call('EXISTS', KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[11], KEYS[3], KEYS[4]) > 0
  else
    optional = redis.call('EXISTS', KEYS[3], KEYS[4]) > 0
  end
end
local prefix, suffix = ARGV[6], ARGV[7]

local rows, originals, shown, authors, seen = {}, {}, {}, {}, {}
for i, id in ipairs(ids) do
  local key = prefix .. id .. suffix
  local status = redis.call('HMGET', key, 'P', 'uid', 'repost_of', 'reply_count', 'repost_count', 'like_count',
    'in_reply_to_deleted', 'edits')
  local uid, original_id = status[2], status[3]
  -- A field a hash lacks costs HMGET a scan of the whole hash: the older layout's "posted" is asked for only
  -- when "P" is missing (store.status_hash).
  local posted = ''
  if uid and not status[1] then
    posted = redis.call('HGET', key, 'posted') or ''
  end
  rows[i] = id .. ' ' .. (status[1] or '') .. ' ' .. (uid or '') .. ' ' .. (original_id or '') .. ' ' ..
    (status[4] or '') .. ' ' .. (status[5] or '') .. ' ' .. (status[6] or '') .. ' ' .. (status[7] or '') .. ' ' ..
    (status[8] or '') .. ' ' .. posted
  shown[i] = id
  if uid and original_id then
    local original_key = prefix .. original_id .. suffix
    local original = redis.call('HMGET', original_key, 'P', 'uid', 'reply_count', 'repost_count', 'like_count',
      'in_reply_to_deleted', 'edits')
    local by = original[2]
    local original_posted = ''
    if by and not original[1] then
      original_posted = redis.call('HGET', original_key, 'posted') or ''
    end
    originals[#originals + 1] = (original[1] or '') .. ' ' .. (by or '') .. ' ' .. (original[3] or '') .. ' ' ..
      (original[4] or '') .. ' ' .. (original[5] or '') .. ' ' .. (original[6] or '') .. ' ' ..
      (original[7] or '') .. ' ' .. original_posted
    shown[i] = original_id
    if by and not seen[by] then
      seen[by] = true
      authors[#authors + 1] = by
    end
  end
  if uid and not seen[uid] then
    seen[uid] = true
    authors[#authors + 1] = uid
  end
end

-- A reply per set that exists. A set that answers nothing is false, not an empty table: each table costs the
-- reply a conversion of its own.
local empty = false
local function each(command, key, members)
  if redis.call('EXISTS', key) == 0 then
    return empty
  end
  return redis.call(command, key, unpack(members))
end
local liked, reposted, bookmarked = empty, empty, empty
local blocks, blocked_by, mutes, follows = empty, empty, empty, empty
local mine, sites = false, false
if optional then
  sites = #authors > 0 and redis.call('EXISTS', KEYS[3], KEYS[4]) > 0
  mine = viewer and redis.call('EXISTS', KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[11]) > 0
end
if mine then
  liked = each('ZMSCORE', KEYS[5], shown)
  reposted = each('HMGET', KEYS[6], shown)
  bookmarked = each('ZMSCORE', KEYS[11], shown)
end

local suspended, limited = empty, empty
if sites then
  suspended, limited = each('SMISMEMBER', KEYS[3], authors), each('SMISMEMBER', KEYS[4], authors)
end
if viewer and #authors > 0 then
  if mine then
    blocks = each('ZMSCORE', KEYS[7], authors)
    blocked_by = each('ZMSCORE', KEYS[8], authors)
    mutes = each('ZMSCORE', KEYS[9], authors)
  end
  local following = #authors > 4 and redis.call('ZCARD', KEYS[10]) or 0
  -- Redis keeps a following set of up to 128 accounts (zset-max-ziplist-entries) compact, and each ZSCORE
  -- then scans it whole: for more than a few authors, reading it once and looking them up in a table costs a
  -- fraction of that.
  local flags = {}
  if following > 0 and following <= 128 then
    local followed = {}
    for _, uid in ipairs(redis.call('ZRANGE', KEYS[10], 0, -1)) do
      followed[uid] = '1'
    end
    for j, uid in ipairs(authors) do
      flags[j] = followed[uid] or '0'
    end
  else
    for j, score in ipairs(redis.call('ZMSCORE', KEYS[10], unpack(authors))) do
      flags[j] = score and '1' or '0'
    end
  end
  follows = table.concat(flags)
end
if #originals == 0 then
  originals = false
end
return { rows, originals, liked, reposted, bookmarked, table.concat(authors, ' '), suspended, limited, blocks,
  blocked_by, mutes, follows }
