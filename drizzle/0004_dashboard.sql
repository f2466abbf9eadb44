DROP INDEX `tasks_user_completed_idx`;--> statement-breakpoint
CREATE INDEX `tasks_user_stats_idx` ON `tasks` (`user_id`,`parent_task_id`,`status`,`priority`,`hrs`);--> statement-breakpoint
CREATE INDEX `tasks_user_completed_idx` ON `tasks` (`user_id`,`completed_at`,`parent_task_id`,`hrs`,`created_at`);--> statement-breakpoint
-- Everyone who signed up before onboarding existed is a returning person: never guided there.
UPDATE `users` SET `onboarded_at` = `created_at` WHERE `onboarded_at` IS NULL;
