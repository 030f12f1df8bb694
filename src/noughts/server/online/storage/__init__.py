"""Online play's database: tables, engine set-up and migrations, and the data access."""
