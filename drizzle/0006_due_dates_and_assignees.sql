CREATE TABLE `due_reminders` (
	`task_id` text NOT NULL,
	`due_date` text NOT NULL,
	`recipient_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`task_id`, `due_date`),
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`recipient_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `due_reminders_recipient_idx` ON `due_reminders` (`recipient_id`);--> statement-breakpoint
ALTER TABLE `tasks` ADD `due_date` text;--> statement-breakpoint
-- ON DELETE by hand: drizzle-kit leaves it out of an added column's REFERENCES.
ALTER TABLE `tasks` ADD `assignee_id` text REFERENCES `users`(`id`) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `tasks_user_due_idx` ON `tasks` (`user_id`,`due_date`) WHERE "tasks"."due_date" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `tasks_due_idx` ON `tasks` (`due_date`) WHERE "tasks"."due_date" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `tasks_assignee_due_idx` ON `tasks` (`assignee_id`,`due_date`) WHERE "tasks"."assignee_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `email_on_due` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `time_zone` text;