import sys

from brass.cli import main

sys.exit(main())
