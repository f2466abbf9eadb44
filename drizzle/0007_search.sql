-- Full-text search (docs/decisions/039-search-index.md). Two FTS5 indexes over the rows they
-- index (external content: the text lives once, in `tasks` and `comments`), accents folded, with
-- prefix indexes for what people type first. Triggers keep them in step inside the transaction
-- of every write, whoever writes (services, the demo seed, scripts, sqld, embedded replicas).
CREATE VIRTUAL TABLE `tasks_search` USING fts5(
	`text`, `details`,
	content='tasks', content_rowid='rowid',
	tokenize='unicode61 remove_diacritics 2', prefix='2 3'
);--> statement-breakpoint
CREATE VIRTUAL TABLE `comments_search` USING fts5(
	`content`,
	content='comments', content_rowid='rowid',
	tokenize='unicode61 remove_diacritics 2', prefix='2 3'
);--> statement-breakpoint
CREATE TRIGGER `tasks_search_insert` AFTER INSERT ON `tasks`
BEGIN
	INSERT INTO `tasks_search`(rowid, `text`, `details`) VALUES (NEW.rowid, NEW.`text`, NEW.`details`);
END;--> statement-breakpoint
-- Only a change of what is indexed touches the index: status, sharing and due dates cost nothing.
CREATE TRIGGER `tasks_search_update` AFTER UPDATE OF `text`, `details` ON `tasks`
WHEN OLD.`text` IS NOT NEW.`text` OR OLD.`details` IS NOT NEW.`details`
BEGIN
	INSERT INTO `tasks_search`(`tasks_search`, rowid, `text`, `details`) VALUES ('delete', OLD.rowid, OLD.`text`, OLD.`details`);
	INSERT INTO `tasks_search`(rowid, `text`, `details`) VALUES (NEW.rowid, NEW.`text`, NEW.`details`);
END;--> statement-breakpoint
CREATE TRIGGER `tasks_search_delete` AFTER DELETE ON `tasks`
BEGIN
	INSERT INTO `tasks_search`(`tasks_search`, rowid, `text`, `details`) VALUES ('delete', OLD.rowid, OLD.`text`, OLD.`details`);
END;--> statement-breakpoint
CREATE TRIGGER `comments_search_insert` AFTER INSERT ON `comments`
BEGIN
	INSERT INTO `comments_search`(rowid, `content`) VALUES (NEW.rowid, NEW.`content`);
END;--> statement-breakpoint
-- Editing a comment, or deleting one that keeps its thread (its content emptied), re-indexes it.
CREATE TRIGGER `comments_search_update` AFTER UPDATE OF `content` ON `comments`
WHEN OLD.`content` IS NOT NEW.`content`
BEGIN
	INSERT INTO `comments_search`(`comments_search`, rowid, `content`) VALUES ('delete', OLD.rowid, OLD.`content`);
	INSERT INTO `comments_search`(rowid, `content`) VALUES (NEW.rowid, NEW.`content`);
END;--> statement-breakpoint
CREATE TRIGGER `comments_search_delete` AFTER DELETE ON `comments`
BEGIN
	INSERT INTO `comments_search`(`comments_search`, rowid, `content`) VALUES ('delete', OLD.rowid, OLD.`content`);
END;--> statement-breakpoint
-- What was written before this migration.
INSERT INTO `tasks_search`(`tasks_search`) VALUES ('rebuild');--> statement-breakpoint
INSERT INTO `comments_search`(`comments_search`) VALUES ('rebuild');
