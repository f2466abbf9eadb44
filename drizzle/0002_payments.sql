CREATE TABLE `refunded_payments` (
	`payment_intent_id` text PRIMARY KEY NOT NULL,
	`refunded_at` integer NOT NULL
);
