-- Tables a Salt master keeps for its MySQL ext_pillar (examples/mysql/master.yml queries them).
-- Load with: mariadb salt_db < schema.sql && mariadb salt_db < fixtures.sql

-- Key/value pillars per minion: the legacy `mysql_query` and the named `main` query read these.
CREATE TABLE pillars (
  id INT AUTO_INCREMENT PRIMARY KEY,
  minion_id VARCHAR(255) NOT NULL,
  pillar VARCHAR(255) NOT NULL,
  value VARCHAR(1024) NULL,
  KEY by_minion (minion_id, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- A second key/value table, for the list of queries and the named `extras` query.
CREATE TABLE more_pillars (
  id INT AUTO_INCREMENT PRIMARY KEY,
  minion_id VARCHAR(255) NOT NULL,
  pillar VARCHAR(255) NOT NULL,
  value VARCHAR(1024) NULL,
  KEY by_minion (minion_id, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- Local accounts: read with [query, depth] at depth 1 (one mapping per user).
CREATE TABLE users (
  id INT AUTO_INCREMENT PRIMARY KEY,
  minion_id VARCHAR(255) NOT NULL,
  name VARCHAR(64) NOT NULL,
  uid INT NOT NULL,
  shell VARCHAR(255) NULL,
  KEY by_minion (minion_id, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- Services: read with {query, depth} at depth 2 below a constant first column.
CREATE TABLE services (
  id INT AUTO_INCREMENT PRIMARY KEY,
  minion_id VARCHAR(255) NOT NULL,
  name VARCHAR(64) NOT NULL,
  port INT NULL,
  enabled TINYINT(1) NOT NULL DEFAULT 1,
  KEY by_minion (minion_id, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- The table of the documentation's "more complete example" (depth 5, as_list, with_lists 1,3).
CREATE TABLE some_random_table (
  id INT AUTO_INCREMENT PRIMARY KEY,
  minion_pattern VARCHAR(255) NOT NULL,
  col1 VARCHAR(64), col2 VARCHAR(64), col3 VARCHAR(64), col4 VARCHAR(64), col5 VARCHAR(64),
  col6 INT, col7 VARCHAR(64),
  KEY by_pattern (minion_pattern, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
