/** The service's tables, for tests that arrange or inspect rows directly (the express tests read a run's steps). */
export * from '@inlay/service/testing';
