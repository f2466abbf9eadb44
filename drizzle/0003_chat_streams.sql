CREATE TABLE `chat_shares` (
	`chat_id` text NOT NULL,
	`email` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`chat_id`, `email`),
	FOREIGN KEY (`chat_id`) REFERENCES `chats`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chat_shares_email_idx` ON `chat_shares` (`email`,`chat_id`);--> statement-breakpoint
CREATE TABLE `chat_stream_chunks` (
	`stream_id` text NOT NULL,
	`seq` integer NOT NULL,
	`chunk` text NOT NULL,
	PRIMARY KEY(`stream_id`, `seq`),
	FOREIGN KEY (`stream_id`) REFERENCES `chat_streams`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `chat_streams` (
	`id` text PRIMARY KEY NOT NULL,
	`chat_id` text NOT NULL,
	`status` text DEFAULT 'running' NOT NULL,
	`stop_requested_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`chat_id`) REFERENCES `chats`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chat_streams_chat_idx` ON `chat_streams` (`chat_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `chat_streams_one_running_idx` ON `chat_streams` (`chat_id`) WHERE status = 'running';--> statement-breakpoint
ALTER TABLE `chat_messages` ADD `parts` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `chat_messages` ADD `position` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `chat_messages_chat_position_idx` ON `chat_messages` (`chat_id`,`position`);