export declare const CONSOLE_BUDGET: number;
export declare const CONSOLE_TOTAL_BUDGET: number;
export declare function consoleSize(dist?: string): { initial: number; lazy: number; total: number };
