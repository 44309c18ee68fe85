-- Rows for examples/mysql/master.yml; expected/<minion>.json is what the pillar gives each minion.
INSERT INTO pillars (minion_id, pillar, value) VALUES
  ('web01', 'role', 'webserver'),
  ('web01', 'env', 'staging'),
  ('web01', 'env', 'prod'),          -- a later row overwrites an earlier one
  ('web01', 'motd', NULL),
  ('db01', 'role', 'database'),
  ('db01', 'env', 'prod');

INSERT INTO more_pillars (minion_id, pillar, value) VALUES
  ('web01', 'ntp_server', 'ntp1.example.com'),
  ('web01', 'role', 'frontend'),     -- the second query overwrites the first query's key at the root
  ('db01', 'backup_window', '02:00-04:00');

INSERT INTO users (minion_id, name, uid, shell) VALUES
  ('web01', 'deploy', 1001, '/bin/bash'),
  ('web01', 'www', 1002, NULL),
  ('db01', 'postgres', 1001, '/bin/sh');

INSERT INTO services (minion_id, name, port, enabled) VALUES
  ('web01', 'nginx', 443, 1),
  ('web01', 'varnish', 6081, 0),
  ('db01', 'mariadb', 3306, 1);

INSERT INTO some_random_table (minion_pattern, col1, col2, col3, col4, col5, col6, col7) VALUES
  ('web01', 'a', 'b', 'c', 'd', 'e', 1, 'one'),
  ('web01', 'a', 'b', 'c', 'f', 'g', 2, 'two'),
  ('web01', 'a', 'z', 'h', 'y', 'j', 3, 'three'),
  ('web01', 'a', 'z', 'h', 'y', 'k', 4, 'four'),
  ('web01', 'a', 'z', 'h', 'y', 'k', 5, 'five'),   -- same keys as the row above: as_list keeps both
  ('db01', 'a', 'b', 'c', 'd', 'e', 9, 'nine');
