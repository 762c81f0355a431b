//! The Lua scripts the nodes run in Redis (each is atomic there).

/// Saves a room while the lease is this node's. KEYS[1] the lease, KEYS[2] the record, KEYS[3]
/// the set of live rooms, KEYS[4] the room's tombstone, KEYS[5..] its players' current-room
/// keys; ARGV[1] this node, ARGV[2] the state, ARGV[3] the kind, ARGV[4] the lease in ms,
/// ARGV[5] the record's time to live in ms (a room nobody saves any more is forgotten after
/// it), ARGV[6] the room's version, ARGV[7] the room.
///
/// A lease that nobody holds (Redis lost its data, or this node could not renew it in time and
/// nobody took the room meanwhile) is taken again, and the room's keys are put back, unless
/// the room ended on another node (its tombstone) or the record is newer than this state.
/// Returns 1 when saved (and the lease renewed), 0 when the room is not this node's.
pub const SAVE: &str = r"
local owner = redis.call('GET', KEYS[1])
if owner ~= ARGV[1] then
  if owner then return 0 end
  if redis.call('EXISTS', KEYS[4]) == 1 then return 0 end
  local v = redis.call('HGET', KEYS[2], 'v')
  if v and tonumber(v) > tonumber(ARGV[6]) then return 0 end
  redis.call('SADD', KEYS[3], ARGV[7])
  for i = 5, #KEYS do
    redis.call('SET', KEYS[i], ARGV[7], 'PX', ARGV[5])
  end
end
redis.call('HSET', KEYS[2], 'state', ARGV[2], 'kind', ARGV[3], 'v', ARGV[6])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[4])
return 1
";

/// Forgets a closed room while the lease is this node's (or nobody's: Redis lost it). KEYS[1]
/// the lease, KEYS[2] the record, KEYS[3] the set of live rooms, KEYS[4] the room's tombstone,
/// KEYS[5..] the players' current-room keys; ARGV[1] this node, ARGV[2] the room, ARGV[3] how
/// long the tombstone stays (ms). Returns 1 when done, 0 when the lease is another node's.
pub const DELETE: &str = r"
local owner = redis.call('GET', KEYS[1])
if owner and owner ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[2])
redis.call('SREM', KEYS[3], ARGV[2])
redis.call('SET', KEYS[4], '1', 'PX', ARGV[3])
for i = 5, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[2] then redis.call('DEL', KEYS[i]) end
end
redis.call('DEL', KEYS[1])
return 1
";

/// Renews this node's leases. KEYS the leases; ARGV[1] this node, ARGV[2] the lease in ms.
/// Returns two lists of 1-based indices: the leases another node holds (lost), and those that
/// nobody holds (Redis lost them, or they ran out: this node saves those rooms again, which
/// takes them back when nothing newer happened elsewhere).
pub const RENEW: &str = r"
local lost = {}
local free = {}
for i, k in ipairs(KEYS) do
  local owner = redis.call('GET', k)
  if owner == ARGV[1] then
    redis.call('PEXPIRE', k, ARGV[2])
  elseif owner then
    table.insert(lost, i)
  else
    table.insert(free, i)
  end
end
return {lost, free}
";

/// Replaces a value if it is still the one read (a compare-and-set: the rule that computed the
/// new value runs in the node, in Rust). KEYS[1] the key; ARGV[1] the value read (empty: there
/// was none), ARGV[2] the new value (empty: delete the key), ARGV[3] its lifetime in ms. Returns
/// 1 when replaced, 0 when the key changed meanwhile.
pub const SWAP: &str = r"
local cur = redis.call('GET', KEYS[1])
if (cur or '') ~= ARGV[1] then return 0 end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
end
return 1
";
