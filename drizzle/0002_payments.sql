CREATE TABLE `checkouts` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`tier` text NOT NULL,
	`kind` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `refunded_payments` (
	`payment_intent_id` text PRIMARY KEY NOT NULL,
	`refunded_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `repository_invitations` (
	`user_id` text PRIMARY KEY NOT NULL,
	`github_login` text,
	`status` text NOT NULL,
	`last_error` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`stripe_customer_id` text NOT NULL,
	`tier` text,
	`status` text NOT NULL,
	`current_period_end` integer,
	`cancel_at_period_end` integer DEFAULT false NOT NULL,
	`ended_at` integer,
	`paid_through` integer,
	`last_payment_failed_at` integer,
	`event_created_at` integer,
	`event_id` text
);
--> statement-breakpoint
CREATE INDEX `subscriptions_customer_idx` ON `subscriptions` (`stripe_customer_id`);--> statement-breakpoint
ALTER TABLE `purchases` ADD `stripe_payment_intent_id` text;--> statement-breakpoint
ALTER TABLE `purchases` ADD `stripe_subscription_id` text;--> statement-breakpoint
ALTER TABLE `purchases` ADD `refunded_at` integer;--> statement-breakpoint
CREATE INDEX `purchases_payment_intent_idx` ON `purchases` (`stripe_payment_intent_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `stripe_customer_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `users_stripe_customer_id_unique` ON `users` (`stripe_customer_id`);