-- Reads one page of status ids from a timeline, newest first, by offset and/or by id cursors (page_ids.lua).
-- KEYS[1]  home:{uid} or profile:{uid}   ZSET
-- KEYS[2]  user:{uid}                    HASH, only checked for existence (same slot as KEYS[1])
-- ARGV[1]  max_id: only ids older than this (exclusive); 0 for no bound
-- ARGV[2]  since_id: only ids newer than this (exclusive); 0 for no bound
-- ARGV[3]  offset from the newest id inside the bounds
-- ARGV[4]  count
-- returns  {id, id, ...} newest first, or nil when the user does not exist
-- include: page_ids
return page_ids(KEYS[1], KEYS[2], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]))
