-- The (merchant, environment, created_at) index of checkout sessions served no read (sessions are
-- only ever read by id) and cost every new session a write. Dropped CONCURRENTLY, alone in its
-- migration.

-- DropIndex
DROP INDEX CONCURRENTLY "checkout_sessions_merchant_id_environment_created_at_idx";
