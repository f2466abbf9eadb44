CREATE TABLE `admin_audit` (
	`id` text PRIMARY KEY NOT NULL,
	`admin_id` text NOT NULL,
	`admin_email` text NOT NULL,
	`action` text NOT NULL,
	`target_user_id` text,
	`target` text DEFAULT '' NOT NULL,
	`ip` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `admin_audit_created_idx` ON `admin_audit` (`created_at`);--> statement-breakpoint
CREATE INDEX `admin_audit_target_user_idx` ON `admin_audit` (`target_user_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `sessions` ADD `impersonator_id` text REFERENCES users(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `users` ADD `disabled_at` integer;--> statement-breakpoint
CREATE TRIGGER `admin_audit_no_update` BEFORE UPDATE ON `admin_audit`
BEGIN SELECT RAISE(ABORT, 'the admin audit log is append-only'); END;--> statement-breakpoint
CREATE TRIGGER `admin_audit_no_delete` BEFORE DELETE ON `admin_audit`
BEGIN SELECT RAISE(ABORT, 'the admin audit log is append-only'); END;
