-- Search narrows to what the searcher may see inside the index, before it ranks anything
-- (docs/decisions/046-search-audience-in-the-index.md). Each task keeps, in `search_audience`,
-- who may see it as words: `o` + its owner's id, `p` when it is public, `s` + each address it is
-- shared with (ids and addresses in hex, so the tokenizer keeps each one word). Both indexes carry
-- that column; a search matches its words AND one of the searcher's own, so a common word no longer
-- means joining thousands of invisible matches to the task rule. The rule still checks every row
-- returned: the column narrows, it never decides.
ALTER TABLE `tasks` ADD `search_audience` text;--> statement-breakpoint
DROP TRIGGER `tasks_search_insert`;--> statement-breakpoint
DROP TRIGGER `tasks_search_update`;--> statement-breakpoint
DROP TRIGGER `tasks_search_delete`;--> statement-breakpoint
DROP TRIGGER `comments_search_insert`;--> statement-breakpoint
DROP TRIGGER `comments_search_update`;--> statement-breakpoint
DROP TRIGGER `comments_search_delete`;--> statement-breakpoint
DROP TABLE `tasks_search`;--> statement-breakpoint
DROP TABLE `comments_search`;--> statement-breakpoint
-- The one definition of a task's audience; the triggers below store it whenever its parts change.
CREATE VIEW `task_audiences` AS
SELECT t.`id` AS `task_id`,
	'o' || hex(t.`user_id`)
	|| CASE WHEN t.`is_public` THEN ' p' ELSE '' END
	|| coalesce((SELECT ' ' || group_concat('s' || hex(s.`email`), ' ') FROM `task_shares` s WHERE s.`task_id` = t.`id`), '')
	AS `audience`
FROM `tasks` t;--> statement-breakpoint
UPDATE `tasks` SET `search_audience` = (SELECT `audience` FROM `task_audiences` WHERE `task_id` = `tasks`.`id`);--> statement-breakpoint
CREATE VIRTUAL TABLE `tasks_search` USING fts5(
	`text`, `details`, `search_audience`,
	content='tasks', content_rowid='rowid',
	tokenize='unicode61 remove_diacritics 2', prefix='2 3 4'
);--> statement-breakpoint
-- A comment is seen by whoever sees its task: the index reads the task's audience through this view.
CREATE VIEW `comments_search_source` AS
SELECT c.rowid AS `comment_rowid`, c.`content`, t.`search_audience`
FROM `comments` c JOIN `tasks` t ON t.`id` = c.`task_id`;--> statement-breakpoint
CREATE VIRTUAL TABLE `comments_search` USING fts5(
	`content`, `search_audience`,
	content='comments_search_source', content_rowid='comment_rowid',
	tokenize='unicode61 remove_diacritics 2', prefix='2 3 4'
);--> statement-breakpoint
-- ── Keeping each task's audience ─────────────────────────────────────────────
-- Set at once for a new task (the update indexes it), and again whenever its owner, its being
-- public or its shares change. An unchanged audience touches nothing (the WHEN below).
CREATE TRIGGER `tasks_audience_insert` AFTER INSERT ON `tasks`
BEGIN
	UPDATE `tasks` SET `search_audience` = (SELECT `audience` FROM `task_audiences` WHERE `task_id` = NEW.`id`) WHERE rowid = NEW.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `tasks_audience_update` AFTER UPDATE OF `user_id`, `is_public` ON `tasks`
WHEN OLD.`user_id` IS NOT NEW.`user_id` OR OLD.`is_public` IS NOT NEW.`is_public`
BEGIN
	UPDATE `tasks` SET `search_audience` = (SELECT `audience` FROM `task_audiences` WHERE `task_id` = NEW.`id`) WHERE rowid = NEW.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `task_shares_audience_insert` AFTER INSERT ON `task_shares`
BEGIN
	UPDATE `tasks` SET `search_audience` = (SELECT `audience` FROM `task_audiences` WHERE `task_id` = NEW.`task_id`) WHERE `id` = NEW.`task_id`;
END;--> statement-breakpoint
CREATE TRIGGER `task_shares_audience_update` AFTER UPDATE ON `task_shares`
BEGIN
	UPDATE `tasks` SET `search_audience` = (SELECT `audience` FROM `task_audiences` WHERE `task_id` = `tasks`.`id`) WHERE `id` IN (OLD.`task_id`, NEW.`task_id`);
END;--> statement-breakpoint
-- Shares deleted with their task find no task here, and need none.
CREATE TRIGGER `task_shares_audience_delete` AFTER DELETE ON `task_shares`
BEGIN
	UPDATE `tasks` SET `search_audience` = (SELECT `audience` FROM `task_audiences` WHERE `task_id` = OLD.`task_id`) WHERE `id` = OLD.`task_id`;
END;--> statement-breakpoint
-- ── Keeping the indexes ──────────────────────────────────────────────────────
-- An external-content index forgets a row only when told the values it indexed; the triggers
-- hand it OLD's. Only a change of what is indexed touches it: a status or a due date costs nothing.
CREATE TRIGGER `tasks_search_update` AFTER UPDATE OF `text`, `details`, `search_audience` ON `tasks`
WHEN OLD.`text` IS NOT NEW.`text` OR OLD.`details` IS NOT NEW.`details` OR OLD.`search_audience` IS NOT NEW.`search_audience`
BEGIN
	INSERT INTO `tasks_search`(`tasks_search`, rowid, `text`, `details`, `search_audience`)
		SELECT 'delete', OLD.rowid, OLD.`text`, OLD.`details`, OLD.`search_audience` WHERE OLD.`search_audience` IS NOT NULL;
	INSERT INTO `tasks_search`(rowid, `text`, `details`, `search_audience`)
		SELECT NEW.rowid, NEW.`text`, NEW.`details`, NEW.`search_audience` WHERE NEW.`search_audience` IS NOT NULL;
END;--> statement-breakpoint
CREATE TRIGGER `tasks_search_delete` AFTER DELETE ON `tasks`
BEGIN
	INSERT INTO `tasks_search`(`tasks_search`, rowid, `text`, `details`, `search_audience`)
		SELECT 'delete', OLD.rowid, OLD.`text`, OLD.`details`, OLD.`search_audience` WHERE OLD.`search_audience` IS NOT NULL;
END;--> statement-breakpoint
-- A task's comments are indexed with its audience, so they follow it.
CREATE TRIGGER `comments_search_audience` AFTER UPDATE OF `search_audience` ON `tasks`
WHEN OLD.`search_audience` IS NOT NEW.`search_audience`
BEGIN
	INSERT INTO `comments_search`(`comments_search`, rowid, `content`, `search_audience`)
		SELECT 'delete', c.rowid, c.`content`, OLD.`search_audience` FROM `comments` c
		WHERE c.`task_id` = NEW.`id` AND OLD.`search_audience` IS NOT NULL;
	INSERT INTO `comments_search`(rowid, `content`, `search_audience`)
		SELECT c.rowid, c.`content`, NEW.`search_audience` FROM `comments` c
		WHERE c.`task_id` = NEW.`id` AND NEW.`search_audience` IS NOT NULL;
END;--> statement-breakpoint
-- Before a task goes, its comments leave the index: deleted with it (ON DELETE CASCADE runs after
-- the task's row is gone), they would find no audience to forget; comments_search_delete skips them.
CREATE TRIGGER `comments_search_task_delete` BEFORE DELETE ON `tasks`
BEGIN
	INSERT INTO `comments_search`(`comments_search`, rowid, `content`, `search_audience`)
		SELECT 'delete', c.rowid, c.`content`, OLD.`search_audience` FROM `comments` c
		WHERE c.`task_id` = OLD.`id` AND OLD.`search_audience` IS NOT NULL;
END;--> statement-breakpoint
CREATE TRIGGER `comments_search_insert` AFTER INSERT ON `comments`
BEGIN
	INSERT INTO `comments_search`(rowid, `content`, `search_audience`)
		SELECT NEW.rowid, NEW.`content`, t.`search_audience` FROM `tasks` t
		WHERE t.`id` = NEW.`task_id` AND t.`search_audience` IS NOT NULL;
END;--> statement-breakpoint
-- Editing a comment, or deleting one that keeps its thread (its content emptied), re-indexes it.
CREATE TRIGGER `comments_search_update` AFTER UPDATE OF `content` ON `comments`
WHEN OLD.`content` IS NOT NEW.`content`
BEGIN
	INSERT INTO `comments_search`(`comments_search`, rowid, `content`, `search_audience`)
		SELECT 'delete', OLD.rowid, OLD.`content`, t.`search_audience` FROM `tasks` t
		WHERE t.`id` = OLD.`task_id` AND t.`search_audience` IS NOT NULL;
	INSERT INTO `comments_search`(rowid, `content`, `search_audience`)
		SELECT NEW.rowid, NEW.`content`, t.`search_audience` FROM `tasks` t
		WHERE t.`id` = NEW.`task_id` AND t.`search_audience` IS NOT NULL;
END;--> statement-breakpoint
CREATE TRIGGER `comments_search_delete` AFTER DELETE ON `comments`
BEGIN
	INSERT INTO `comments_search`(`comments_search`, rowid, `content`, `search_audience`)
		SELECT 'delete', OLD.rowid, OLD.`content`, t.`search_audience` FROM `tasks` t
		WHERE t.`id` = OLD.`task_id` AND t.`search_audience` IS NOT NULL;
END;--> statement-breakpoint
-- What was written before this migration.
INSERT INTO `tasks_search`(`tasks_search`) VALUES ('rebuild');--> statement-breakpoint
INSERT INTO `comments_search`(`comments_search`) VALUES ('rebuild');
