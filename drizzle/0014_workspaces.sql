CREATE TABLE `workspace_invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`inviter_id` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`inviter_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "workspace_invitations_role_valid" CHECK("workspace_invitations"."role" IN ('admin', 'member')),
	CONSTRAINT "workspace_invitations_status_valid" CHECK("workspace_invitations"."status" IN ('pending', 'accepted', 'rejected', 'canceled'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `workspace_invitations_pending_idx` ON `workspace_invitations` (`workspace_id`,`email`) WHERE "workspace_invitations"."status" = 'pending';--> statement-breakpoint
CREATE INDEX `workspace_invitations_workspace_idx` ON `workspace_invitations` (`workspace_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `workspace_invitations_inviter_idx` ON `workspace_invitations` (`inviter_id`,`status`);--> statement-breakpoint
CREATE INDEX `workspace_invitations_email_idx` ON `workspace_invitations` (`email`,`status`);--> statement-breakpoint
CREATE TABLE `workspace_members` (
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	`role` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `user_id`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "workspace_members_role_valid" CHECK("workspace_members"."role" IN ('owner', 'admin', 'member'))
);
--> statement-breakpoint
CREATE INDEX `workspace_members_user_idx` ON `workspace_members` (`user_id`,`workspace_id`,`role`);--> statement-breakpoint
CREATE UNIQUE INDEX `workspace_members_one_owner_idx` ON `workspace_members` (`workspace_id`) WHERE "workspace_members"."role" = 'owner';--> statement-breakpoint
CREATE TABLE `workspaces` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`personal_of` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`personal_of`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `workspaces_slug_idx` ON `workspaces` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `workspaces_personal_of_idx` ON `workspaces` (`personal_of`);--> statement-breakpoint
-- Every account gets its personal workspace, its id the account's own, with the account as owner.
INSERT INTO `workspaces` (`id`, `name`, `slug`, `personal_of`, `created_at`)
	SELECT `id`, 'Personal', 'personal-' || lower(hex(randomblob(8))), `id`, `created_at` FROM `users`;--> statement-breakpoint
INSERT INTO `workspace_members` (`workspace_id`, `user_id`, `role`, `created_at`)
	SELECT `id`, `id`, 'owner', `created_at` FROM `users`;--> statement-breakpoint
-- And so does every account created from now on, whichever way it is created, in the same statement.
CREATE TRIGGER `users_personal_workspace` AFTER INSERT ON `users`
BEGIN
	INSERT INTO `workspaces` (`id`, `name`, `slug`, `personal_of`, `created_at`)
		VALUES (NEW.`id`, 'Personal', 'personal-' || lower(hex(randomblob(8))), NEW.`id`, NEW.`created_at`);
	INSERT INTO `workspace_members` (`workspace_id`, `user_id`, `role`, `created_at`)
		VALUES (NEW.`id`, NEW.`id`, 'owner', NEW.`created_at`);
END;--> statement-breakpoint
-- Who may see what follows membership: versioned reads that depend on it move when it changes
-- (app/services/read-versions.server.ts).
INSERT INTO `version_counters` (`scope`, `value`) VALUES ('memberships', 0);--> statement-breakpoint
CREATE TRIGGER `workspace_members_version_insert` AFTER INSERT ON `workspace_members`
BEGIN
	UPDATE `version_counters` SET `value` = `value` + 1 WHERE `scope` = 'memberships';
END;--> statement-breakpoint
CREATE TRIGGER `workspace_members_version_update` AFTER UPDATE ON `workspace_members`
BEGIN
	UPDATE `version_counters` SET `value` = `value` + 1 WHERE `scope` = 'memberships';
END;--> statement-breakpoint
CREATE TRIGGER `workspace_members_version_delete` AFTER DELETE ON `workspace_members`
BEGIN
	UPDATE `version_counters` SET `value` = `value` + 1 WHERE `scope` = 'memberships';
END;--> statement-breakpoint
ALTER TABLE `sessions` ADD `active_workspace_id` text REFERENCES `workspaces`(`id`) ON DELETE set null;--> statement-breakpoint
-- ── Every task in a workspace ───────────────────────────────────────────────
-- SQLite cannot add a NOT NULL reference to a table with rows, so `tasks` is rebuilt (foreign
-- keys are off while a migration runs), each row keeping its rowid, which the search index is
-- keyed by. What reads `tasks` by name is dropped first and written again after, the search
-- audience now naming the workspace (`w` + its id) where it named the owner.
DROP TRIGGER `tasks_audience_insert`;--> statement-breakpoint
DROP TRIGGER `tasks_audience_update`;--> statement-breakpoint
DROP TRIGGER `tasks_search_update`;--> statement-breakpoint
DROP TRIGGER `tasks_search_delete`;--> statement-breakpoint
DROP TRIGGER `comments_search_audience`;--> statement-breakpoint
DROP TRIGGER `comments_search_task_delete`;--> statement-breakpoint
DROP TRIGGER `comments_search_insert`;--> statement-breakpoint
DROP TRIGGER `comments_search_update`;--> statement-breakpoint
DROP TRIGGER `comments_search_delete`;--> statement-breakpoint
DROP TRIGGER `task_shares_audience_insert`;--> statement-breakpoint
DROP TRIGGER `task_shares_audience_update`;--> statement-breakpoint
DROP TRIGGER `task_shares_audience_delete`;--> statement-breakpoint
DROP VIEW `task_audiences`;--> statement-breakpoint
DROP VIEW `comments_search_source`;--> statement-breakpoint
CREATE TABLE `__new_tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`text` text NOT NULL,
	`details` text,
	`ref_link` text,
	`priority` text DEFAULT 'medium' NOT NULL,
	`status` text DEFAULT 'Not Started' NOT NULL,
	`is_public` integer DEFAULT false NOT NULL,
	`parent_task_id` text,
	`hrs` integer DEFAULT 1 NOT NULL,
	`due_date` text,
	`assignee_id` text,
	`completed_at` integer,
	`search_audience` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`parent_task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`assignee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "tasks_hrs_range" CHECK(`hrs` BETWEEN 1 AND 8),
	CONSTRAINT "tasks_priority_valid" CHECK(`priority` IN ('high', 'medium', 'low')),
	CONSTRAINT "tasks_status_valid" CHECK(`status` IN ('Not Started', 'In Progress', 'Completed'))
);--> statement-breakpoint
INSERT INTO `__new_tasks` (rowid, `id`, `user_id`, `workspace_id`, `text`, `details`, `ref_link`, `priority`, `status`, `is_public`, `parent_task_id`, `hrs`, `due_date`, `assignee_id`, `completed_at`, `search_audience`, `created_at`, `updated_at`)
	SELECT rowid, `id`, `user_id`, `user_id`, `text`, `details`, `ref_link`, `priority`, `status`, `is_public`, `parent_task_id`, `hrs`, `due_date`, `assignee_id`, `completed_at`, `search_audience`, `created_at`, `updated_at` FROM `tasks`;--> statement-breakpoint
DROP TABLE `tasks`;--> statement-breakpoint
ALTER TABLE `__new_tasks` RENAME TO `tasks`;--> statement-breakpoint
CREATE INDEX `tasks_assignee_due_idx` ON `tasks` (`assignee_id`,`due_date`) WHERE "tasks"."assignee_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `tasks_due_idx` ON `tasks` (`due_date`) WHERE "tasks"."due_date" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `tasks_parent_idx` ON `tasks` (`parent_task_id`);--> statement-breakpoint
CREATE INDEX `tasks_public_created_idx` ON `tasks` (`is_public`,`created_at`) WHERE "tasks"."is_public" = 1;--> statement-breakpoint
CREATE INDEX `tasks_user_completed_idx` ON `tasks` (`user_id`,`completed_at`,`parent_task_id`,`hrs`,`created_at`);--> statement-breakpoint
CREATE INDEX `tasks_user_created_idx` ON `tasks` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `tasks_user_due_idx` ON `tasks` (`user_id`,`due_date`) WHERE "tasks"."due_date" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `tasks_user_stats_idx` ON `tasks` (`user_id`,`parent_task_id`,`status`,`priority`,`hrs`);--> statement-breakpoint
CREATE INDEX `tasks_user_status_idx` ON `tasks` (`user_id`,`status`);--> statement-breakpoint
CREATE INDEX `tasks_workspace_created_idx` ON `tasks` (`workspace_id`,`created_at`);--> statement-breakpoint
-- Who may see a task, as the search index's words: `w` + its workspace's id, `p` when public, `s` +
-- each address it is shared with.
CREATE VIEW `task_audiences` AS
SELECT t.`id` AS `task_id`,
	'w' || hex(t.`workspace_id`)
	|| CASE WHEN t.`is_public` THEN ' p' ELSE '' END
	|| coalesce((SELECT ' ' || group_concat('s' || hex(s.`email`), ' ') FROM `task_shares` s WHERE s.`task_id` = t.`id`), '')
	AS `audience`
FROM `tasks` t;--> statement-breakpoint
CREATE VIEW `comments_search_source` AS
SELECT c.rowid AS `comment_rowid`, c.`content`, t.`search_audience`
FROM `comments` c JOIN `tasks` t ON t.`id` = c.`task_id`;--> statement-breakpoint
CREATE TRIGGER `tasks_audience_insert` AFTER INSERT ON `tasks`
BEGIN
	UPDATE `tasks` SET `search_audience` = (SELECT `audience` FROM `task_audiences` WHERE `task_id` = NEW.`id`) WHERE rowid = NEW.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `tasks_audience_update` AFTER UPDATE OF `workspace_id`, `is_public` ON `tasks`
WHEN OLD.`workspace_id` IS NOT NEW.`workspace_id` OR OLD.`is_public` IS NOT NEW.`is_public`
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
CREATE TRIGGER `task_shares_audience_delete` AFTER DELETE ON `task_shares`
BEGIN
	UPDATE `tasks` SET `search_audience` = (SELECT `audience` FROM `task_audiences` WHERE `task_id` = OLD.`task_id`) WHERE `id` = OLD.`task_id`;
END;--> statement-breakpoint
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
UPDATE `tasks` SET `search_audience` = (SELECT `audience` FROM `task_audiences` WHERE `task_id` = `tasks`.`id`);--> statement-breakpoint
INSERT INTO `tasks_search`(`tasks_search`) VALUES ('rebuild');--> statement-breakpoint
INSERT INTO `comments_search`(`comments_search`) VALUES ('rebuild');
