ALTER TABLE `notifications` ADD `emailed_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `email_on_mention` integer DEFAULT true NOT NULL;