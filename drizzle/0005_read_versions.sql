CREATE TABLE `version_counters` (
	`scope` text PRIMARY KEY NOT NULL,
	`value` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `version_counters` (`scope`, `value`) VALUES ('people', 0), ('pruned-events', 0);--> statement-breakpoint
-- What others are shown of a person (name, picture, address, whether it is verified, whether the
-- account exists) is part of the answers that are versioned; the database bumps the counter in
-- the same statement as the change, whichever code path made it.
CREATE TRIGGER `users_people_version_insert` AFTER INSERT ON `users`
BEGIN
	UPDATE `version_counters` SET `value` = `value` + 1 WHERE `scope` = 'people';
END;--> statement-breakpoint
CREATE TRIGGER `users_people_version_update` AFTER UPDATE OF `name`, `image`, `email`, `email_verified_at` ON `users`
WHEN OLD.`name` IS NOT NEW.`name` OR OLD.`image` IS NOT NEW.`image` OR OLD.`email` IS NOT NEW.`email`
	OR OLD.`email_verified_at` IS NOT NEW.`email_verified_at`
BEGIN
	UPDATE `version_counters` SET `value` = `value` + 1 WHERE `scope` = 'people';
END;--> statement-breakpoint
CREATE TRIGGER `users_people_version_delete` AFTER DELETE ON `users`
BEGIN
	UPDATE `version_counters` SET `value` = `value` + 1 WHERE `scope` = 'people';
END;
